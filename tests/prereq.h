/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a GoogleTest case does when this machine cannot run it: the C++ side
 * of tests/prereq.py (the rule is written there and in docs/TESTING.md,
 * "Skips"). It fails, naming what is missing, unless DPSCTP_ALLOW_SKIP=1
 * asks for a skip. Use it in a test body or SetUp() (it returns from the
 * function, as GTEST_SKIP and FAIL do):
 *
 *	DPSCTP_PREREQ(geteuid() == 0, "needs root to create a namespace");
 */
#ifndef DPSCTP_TESTS_PREREQ_H
#define DPSCTP_TESTS_PREREQ_H

#include <cstdlib>
#include <cstring>

#include <gtest/gtest.h>

namespace dpsctp_test {

inline bool
skips_allowed()
{
	const char *v = std::getenv("DPSCTP_ALLOW_SKIP");
	return v != nullptr && std::strcmp(v, "1") == 0;
}

} // namespace dpsctp_test

#define DPSCTP_PREREQ(cond, why)                                                                   \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			if (dpsctp_test::skips_allowed())                                          \
				GTEST_SKIP() << why << " (DPSCTP_ALLOW_SKIP=1)";                   \
			else                                                                       \
				FAIL() << "cannot run here: " << why                               \
				       << "; `./dev.sh test` as root sets up everything, or set "  \
					  "DPSCTP_ALLOW_SKIP=1 to skip instead";                   \
		}                                                                                  \
	} while (0)

#endif /* DPSCTP_TESTS_PREREQ_H */
