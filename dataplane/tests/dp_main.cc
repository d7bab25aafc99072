// SPDX-License-Identifier: BSD-3-Clause
// The main() of the [dp] gtest programs: gtest, then one EAL for the
// process (DpEal, dp_env.h) around every test.
#include <gtest/gtest.h>

#include "dataplane/tests/dp_env.h"

int
main(int argc, char **argv)
{
	::testing::InitGoogleTest(&argc, argv);
	::testing::AddGlobalTestEnvironment(new DpEal);
	return RUN_ALL_TESTS();
}
