/* SPDX-License-Identifier: BSD-3-Clause */
// [dp] What an instance reserves per association (docs/MEMORY.md), read from
// the EAL's heap around dpsctp_create() on a net_ring port:
//   - the shared reassembly, send and retransmission pools grow with
//     --active-assocs (16 entries each of the three for every one), not
//     with --max-assocs: two instances that differ only in --max-assocs
//     differ by less per association than one such share;
//   - --multihomed reserves a block of further paths per association it
//     covers, --max-paths 1 none;
//   - an association costs its blocks and their pools' headers, not the
//     4 KB pages they would be rounded to as IOVA-contiguous objects.
// The figures are printed for the record; the assertions compare
// instances with each other, so a block that grows moves both sides.
#include <gtest/gtest.h>

#include <rte_malloc.h>

#include <string>
#include <utility>
#include <vector>

#include "dataplane/tests/dp_env.h"

extern "C" {
#include "dataplane/dp_types.h"
#include "sctp/outq.h"
#include "sctp/path.h"
#include "sctp/reasm.h"
#include "sctp/rtxq.h"
}

namespace {

using Opts = std::vector<std::pair<const char *, std::string>>;

// Heap bytes an instance with these options holds once created.
size_t
instance_bytes(const std::string &tag, const Opts &opts)
{
	RingLink link(tag, 1);
	EXPECT_GE(link.a, 0) << rte_strerror(rte_errno);
	dpsctp_config c = dp_test_config(link.name_a, "10.0.0.1/16", 1, 5001);
	char err[256] = "";
	for (const auto &o : opts)
		EXPECT_EQ(dpsctp_config_set(&c, o.first, o.second.c_str(), err, sizeof(err)), 0)
			<< o.first << ": " << err;
	rte_malloc_socket_stats before, after;
	rte_malloc_get_socket_stats(0, &before);
	dpsctp *d = dpsctp_create(&c, err, sizeof(err));
	EXPECT_NE(d, nullptr) << err;
	rte_malloc_get_socket_stats(0, &after);
	static bool told;
	if (d != nullptr && !told) {
		printf("data block (64 streams each way) %u bytes\n", d->data_bytes);
		told = true;
	}
	dpsctp_destroy(d);
	return after.heap_allocsz_bytes - before.heap_allocsz_bytes;
}

unsigned serial;

size_t
bytes(unsigned assocs, const char *active, const char *multihomed, const char *max_paths = "4")
{
	return instance_bytes("mem" + std::to_string(serial++),
			      { { "max-assocs", std::to_string(assocs) },
				{ "max-handshakes", "64" },
				{ "active-assocs", active },
				{ "multihomed", multihomed },
				{ "max-paths", max_paths },
				{ "neighbours", "256" } });
}

TEST(DpMemory, SharedPoolsFollowActiveAssocsNotMaxAssocs)
{
	// 16 entries of each shared pool (their PR-SCTP and context slots besides).
	const double share =
		16.0 * (sizeof(sctp_reasm_node) + sizeof(sctp_outq_msg) + sizeof(sctp_rtxq_node));
	// --max-assocs 1000 and 5000: with 64 active, and with every one active.
	double fixed = double(bytes(5000, "64", "64") - bytes(1000, "64", "64")) / 4000.0;
	double all = double(bytes(5000, "5000", "64") - bytes(1000, "1000", "64")) / 4000.0;
	printf("per association: %.0f bytes with --active-assocs 64, %.0f with every one "
	       "active; 16 entries of each pool: %.0f bytes at least\n",
	       fixed, all, share);
	EXPECT_GE(all - fixed, share) << "an idle association still pays a share of the pools";
}

TEST(DpMemory, PathBlocksFollowMultihomed)
{
	const double block = 7.0 * sizeof(sctp_path);
	size_t none = bytes(2000, "64", "64", "1");
	size_t few = bytes(2000, "64", "64");
	size_t all = bytes(2000, "64", "2000");
	double per_block = double(all - few) / 1936.0;
	// The blocks docs/MEMORY.md names, as this build lays them out.
	printf("association block (struct dpsctp_assoc) %zu bytes: the core's association %zu, "
	       "its figures %zu; the worker's counters of all its associations together %zu\n",
	       sizeof(dpsctp_assoc), sizeof(sctp_assoc), sizeof(sctp_assoc_stats),
	       sizeof(sctp_assoc_counters));
	printf("a block of further paths: %.0f bytes (7 paths: %.0f); --max-paths 1 saves %.0f "
	       "more\n",
	       per_block, block, double(few - none));
	EXPECT_GE(per_block, block);
	EXPECT_GE(double(few - none), 64.0 * block);
}

} // namespace

// The association and data blocks are packed into their pools' memory, not
// one or two to a 4 KB page (IOVA-contiguous objects on --no-huge): what one
// more association reserves, single-homed with the shared pools and blocks
// of paths fixed, is the two blocks and no more than 640 bytes besides (two
// pool headers and ring slots, two hash tables' entries). With each block
// rounded to its page it was 6,144 bytes of blocks alone.
TEST(DpMemory, BlocksArePackedNotPaged)
{
	double per = double(bytes(5000, "64", "64", "1") - bytes(1000, "64", "64", "1")) / 4000.0;
	RingLink link("memd", 1);
	dpsctp_config c = dp_test_config(link.name_a, "10.0.0.1/16", 1, 5001);
	char err[256] = "";
	dpsctp *d = dpsctp_create(&c, err, sizeof(err));
	ASSERT_NE(d, nullptr) << err;
	const double blocks = double(sizeof(dpsctp_assoc) + d->data_bytes);
	dpsctp_destroy(d);
	printf("per single-homed association: %.0f bytes, of them the association and data "
	       "blocks %.0f\n",
	       per, blocks);
	EXPECT_GE(per, blocks);
	EXPECT_LE(per, blocks + 640.0);
}
