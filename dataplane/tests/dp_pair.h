/* SPDX-License-Identifier: BSD-3-Clause */
// The fixture of the [dp] tests that run two instances against each other:
// a client on a net_ring link's side a (10.0.0.1/24) and a server on side b
// (10.0.0.2/24), one worker each, both polled by the test thread. It makes
// them from the test's options, and on the way out stops both, empties the
// wire and checks that every mbuf came back to its pool, so a test that
// failed half way leaves nothing for the next one. What the test's
// applications are (callbacks, per-side records) stays in the test.
#ifndef DPSCTP_DATAPLANE_TESTS_DP_PAIR_H
#define DPSCTP_DATAPLANE_TESTS_DP_PAIR_H

#include <gtest/gtest.h>

#include <rte_mempool.h>

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dataplane/tests/dp_env.h"

// A test's application on one end: its association once up, whether it
// ended, and the messages it received (callbacks() gives dpsctp_listen() and
// connect_to() what fills it in; the argument is the DpPairApp).
struct DpPairApp {
	dpsctp_assoc *a = nullptr;
	bool up = false, ended = false;
	uint64_t msgs = 0;

	static dpsctp_callbacks callbacks()
	{
		dpsctp_callbacks cb = {};
		cb.on_recv = [](dpsctp_assoc *, const dpsctp_msg *, void *arg) {
			static_cast<DpPairApp *>(arg)->msgs++;
		};
		cb.on_event = [](dpsctp_assoc *as, const dpsctp_event *ev, void *arg) {
			DpPairApp *app = static_cast<DpPairApp *>(arg);
			if (ev->type == DPSCTP_EV_COMM_UP) {
				app->a = as;
				app->up = true;
			}
			if (ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE ||
			    ev->type == DPSCTP_EV_COMM_LOST)
				app->ended = true;
		};
		return cb;
	}
};

class DpPair : public ::testing::Test {
      protected:
	// Options by name (dpsctp_config_set()); an empty value keeps the default.
	using Opts = std::vector<std::pair<const char *, std::string>>;

	// The link and both instances; edit (optional) sees both configurations
	// before the options are applied (the defaults, as the test's link has
	// them), then the options go on and both are validated and used.
	void open_pair(const std::string &tag, const Opts &client, const Opts &server,
		       const std::function<void(dpsctp_config &, dpsctp_config &)> &edit = nullptr)
	{
		link_ = std::make_unique<RingLink>(tag + std::to_string(serial_++), 1);
		ASSERT_GE(link_->a, 0);
		ASSERT_GE(link_->b, 0);
		char err[256];
		dpsctp_config cc = dp_test_config(link_->name_a, "10.0.0.1/24", 1, 0);
		dpsctp_config sc = dp_test_config(link_->name_b, "10.0.0.2/24", 1, 0);
		if (edit)
			edit(cc, sc);
		const std::pair<dpsctp_config *, const Opts *> sides[] = { { &cc, &client },
									   { &sc, &server } };
		for (const auto &side : sides)
			for (const auto &o : *side.second) {
				if (o.second.empty())
					continue;
				ASSERT_EQ(dpsctp_config_set(side.first, o.first, o.second.c_str(),
							    err, sizeof(err)),
					  0)
					<< err;
			}
		ASSERT_EQ(dpsctp_config_validate(&cc, err, sizeof(err)), 0) << err;
		ASSERT_EQ(dpsctp_config_validate(&sc, err, sizeof(err)), 0) << err;
		c_ = dpsctp_create(&cc, err, sizeof(err));
		ASSERT_NE(c_, nullptr) << err;
		s_ = dpsctp_create(&sc, err, sizeof(err));
		ASSERT_NE(s_, nullptr) << err;
		cfree_ = rte_mempool_avail_count(dpsctp_pktmbuf_pool(c_));
		sfree_ = rte_mempool_avail_count(dpsctp_pktmbuf_pool(s_));
	}
	// The client's association to the server's port (10.0.0.2), or NULL.
	dpsctp_assoc *connect_to(uint16_t port, const dpsctp_callbacks *cb, void *arg,
				 const dpsctp_initmsg *init = nullptr)
	{
		sctp_addr peer = { 4, { 10, 0, 0, 2 } };
		int rc = 0;
		dpsctp_assoc *a = dpsctp_connect_opts(c_, 0, &peer, 1, port, 0, init, cb, arg, &rc);
		EXPECT_NE(a, nullptr) << rc;
		return a;
	}
	void TearDown() override
	{
		// Both stopped and the wire emptied before any pool is counted or
		// freed (RingLink::drain()).
		for (dpsctp *d : { c_, s_ }) {
			if (d != nullptr) {
				EXPECT_EQ(dpsctp_stop(d, 100), 0);
			}
		}
		if (link_ != nullptr)
			link_->drain();
		if (c_ != nullptr) {
			EXPECT_EQ(rte_mempool_avail_count(dpsctp_pktmbuf_pool(c_)), cfree_);
		}
		if (s_ != nullptr) {
			EXPECT_EQ(rte_mempool_avail_count(dpsctp_pktmbuf_pool(s_)), sfree_);
		}
		dpsctp_destroy(c_);
		dpsctp_destroy(s_);
		c_ = s_ = nullptr;
		link_.reset();
	}
	void poll()
	{
		dpsctp_poll(c_, 0);
		dpsctp_poll(s_, 0);
	}
	// Poll until f() holds, at most max rounds: f()'s last value.
	template <typename F> bool until(F f, uint64_t max = 20000000)
	{
		for (uint64_t i = 0; i < max && !f(); i++)
			poll();
		return f();
	}
	// A graceful close from the client's side: both applications see their
	// association end (App: the test's record, with a and ended).
	template <typename App> void close_pair(App &client, App &server)
	{
		ASSERT_EQ(dpsctp_shutdown(client.a), 0);
		ASSERT_TRUE(until([&] { return client.ended && server.ended; }))
			<< dp_test_counters(c_) << " / " << dp_test_counters(s_);
		EXPECT_EQ(dpsctp_assoc_count(c_) + dpsctp_assoc_count(s_), 0u);
	}
	// A worker-0 counter of d by name, UINT64_MAX when there is none.
	static uint64_t counter(dpsctp *d, const char *want)
	{
		const char *name;
		for (unsigned i = 0;; i++) {
			uint64_t v = dpsctp_worker_counter(d, 0, i, &name);
			if (name == nullptr)
				return UINT64_MAX;
			if (strcmp(name, want) == 0)
				return v;
		}
	}
	static dpsctp_assoc_stats stats(dpsctp_assoc *a)
	{
		dpsctp_assoc_stats st = {};
		EXPECT_EQ(dpsctp_assoc_get_stats(a, &st), 0);
		return st;
	}

	std::unique_ptr<RingLink> link_;
	dpsctp *c_ = nullptr, *s_ = nullptr;
	unsigned cfree_ = 0, sfree_ = 0;
	static inline unsigned serial_ = 0; // ethdev and ring names are per process
};

#endif /* DPSCTP_DATAPLANE_TESTS_DP_PAIR_H */
