/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpsctpd over DPDK telemetry (dpdk-telemetry.py, or any client of the
 * telemetry socket), beside the data plane's /dpsctp/ commands:
 *
 *   /dpsctpd/stats   the daemon: applications, associations it names,
 *                    held events, memory for applications (heap and shared
 *                    regions), mbufs in use, its counters summed over
 *                    present and departed applications, the control
 *                    socket's (pending hellos, refusals by reason), the
 *                    loop's heartbeat (docs/COUNTERS.md)
 *   /dpsctpd/apps    one entry per attached application: id, name,
 *                    threads, associations, its counters
 *   /dpsctpd/workers one entry per worker (--queues): its loop's
 *                    iterations, the associations it owns, events held,
 *                    the applications' counters for the traffic it served
 *                    (present and departed ones)
 *
 * The loop owns the tables; the telemetry thread reads a copy the loop
 * refreshes every 100 ms (dd_telemetry_refresh()) under a mutex, so a
 * reply is at most that old and never reads an application being freed.
 * A copy says nothing of a loop that stopped refreshing it: the loop's
 * heartbeat (dd_loop, dd.h) is read directly and its age computed at the
 * time of the reply (loop_age_us), so a health check sees a stalled loop.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_telemetry.h>

#include "apps/dpsctpd/dd.h"

struct dd_tel_app {
	uint32_t id, threads, assocs, listens;
	char name[SC_NAME_LEN];
	uint64_t held;
	struct dd_counters ctr;
};

struct dd_tel_worker {
	uint64_t iterations, assocs, held;
	struct dd_counters ctr;
};

static struct {
	pthread_mutex_t mu;
	bool valid;
	uint64_t apps, assocs, held, heap_bytes, region_bytes, mbufs_in_use;
	uint64_t attached, detached, refused, apps_dropped, orphan_events, orphan_accepts;
	uint64_t pending, bad_hello, hello_timeouts, pending_evicted, welcome_unsent, refused_cred;
	struct dd_counters sum;
	unsigned n;
	struct dd_tel_app app[SC_SERVER_MAX_APPS];
	unsigned n_workers;
	struct dd_tel_worker wk[SC_MAX_WORKERS];
} dd_tel = { .mu = PTHREAD_MUTEX_INITIALIZER };

struct dd_loop_beat dd_loop;

static const char *const dd_counter_names[] = {
	"requests",	  "bad_requests",   "sends",	     "send_bytes",
	"completions",	  "events",	    "recv_msgs",     "recv_bytes",
	"held",		  "wakeups",	    "assocs_opened", "assocs_aborted_at_exit",
	"backlog_aborts", "recv_zero_copy",
};
_Static_assert(sizeof(dd_counter_names) / sizeof(dd_counter_names[0]) ==
		       sizeof(struct dd_counters) / sizeof(uint64_t),
	       "a name per counter");

void
dd_telemetry_refresh(struct dd *d)
{
	pthread_mutex_lock(&dd_tel.mu);
	dd_tel.valid = true;
	dd_tel.n = 0;
	dd_tel.held = dd_tel.region_bytes = 0;
	dd_tel.sum = d->gone;
	/* The other workers' counters are read as they are being counted: each a
	 * 64-bit word written by its one worker, so a value is at most a round old. */
	dd_tel.n_workers = d->n_workers;
	dd_tel.assocs = 0;
	for (unsigned w = 0; w < d->n_workers; w++) {
		struct dd_tel_worker *k = &dd_tel.wk[w];
		memset(k, 0, sizeof(*k));
		k->ctr = d->gone_wk[w];
		k->iterations =
			w == 0 ? atomic_load_explicit(&dd_loop.iterations, memory_order_relaxed)
			       : atomic_load_explicit(&d->wk[w].iterations, memory_order_relaxed);
		k->assocs = d->assocs_used[w];
		dd_tel.assocs += d->assocs_used[w];
	}
	for (unsigned i = 0; i < SC_SERVER_MAX_APPS; i++) {
		struct sc_app *sa = d->srv.apps[i];
		if (sa == NULL || sa->user == NULL)
			continue;
		struct dd_app *app = sa->user;
		struct dd_tel_app *t = &dd_tel.app[dd_tel.n++];
		t->id = sa->id;
		t->threads = sa->layout.n_threads;
		t->assocs = app->assocs;
		t->listens = app->listens;
		snprintf(t->name, sizeof(t->name), "%s", sa->name);
		t->held = 0;
		memset(&t->ctr, 0, sizeof(t->ctr));
		for (unsigned w = 0; w < d->n_workers; w++) {
			uint64_t held = 0;
			for (unsigned k = 0; k < sa->layout.n_threads; k++)
				held += app->t[w][k].held_n;
			t->held += held;
			dd_tel.wk[w].held += held;
			dd_counters_add(&t->ctr, &app->ctr[w]);
			dd_counters_add(&dd_tel.wk[w].ctr, &app->ctr[w]);
		}
		dd_tel.held += t->held;
		dd_tel.region_bytes += sa->layout.region_bytes;
		dd_counters_add(&dd_tel.sum, &t->ctr);
	}
	dd_tel.apps = dd_tel.n;
	dd_tel.heap_bytes = d->heap_bytes;
	dd_tel.mbufs_in_use = rte_mempool_in_use_count(dpsctp_pktmbuf_pool(d->dp));
	dd_tel.attached = d->srv.ctr.attached;
	dd_tel.detached = d->srv.ctr.detached;
	dd_tel.refused = d->srv.ctr.refused;
	dd_tel.pending = d->srv.n_pending;
	dd_tel.bad_hello = d->srv.ctr.bad_hello;
	dd_tel.hello_timeouts = d->srv.ctr.hello_timeouts;
	dd_tel.pending_evicted = d->srv.ctr.pending_evicted;
	dd_tel.welcome_unsent = d->srv.ctr.welcome_unsent;
	dd_tel.refused_cred = d->srv.ctr.refused_cred;
	dd_tel.apps_dropped = __atomic_load_n(&d->apps_dropped, __ATOMIC_RELAXED);
	dd_tel.orphan_events = __atomic_load_n(&d->orphan_events, __ATOMIC_RELAXED);
	dd_tel.orphan_accepts = __atomic_load_n(&d->orphan_accepts, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&dd_tel.mu);
}

static void
dd_tel_counters(struct rte_tel_data *t, const struct dd_counters *c)
{
	const uint64_t *v = (const uint64_t *)c;
	for (size_t i = 0; i < sizeof(*c) / sizeof(uint64_t); i++)
		rte_tel_data_add_dict_u64(t, dd_counter_names[i], v[i]);
}

static uint64_t
dd_tsc_us(uint64_t cycles)
{
	return (uint64_t)((double)cycles * 1e6 / (double)rte_get_tsc_hz());
}

/* The heartbeat, as it is now (not from the copy). */
static void
dd_tel_loop(struct rte_tel_data *t)
{
	uint64_t now = rte_get_tsc_cycles();
	uint64_t last = atomic_load_explicit(&dd_loop.last_tsc, memory_order_relaxed);
	rte_tel_data_add_dict_u64(t, "loop_iterations",
				  atomic_load_explicit(&dd_loop.iterations, memory_order_relaxed));
	/* Another core's TSC may be a little behind the loop's: no negative age. */
	rte_tel_data_add_dict_u64(t, "loop_age_us", now > last ? dd_tsc_us(now - last) : 0);
	rte_tel_data_add_dict_u64(
		t, "loop_longest_us",
		dd_tsc_us(atomic_load_explicit(&dd_loop.longest_tsc, memory_order_relaxed)));
	rte_tel_data_add_dict_u64(t, "log_lost",
				  atomic_load_explicit(&dd_loop.log_lost, memory_order_relaxed));
}

static int
dd_tel_stats(const char *cmd, const char *params, struct rte_tel_data *t)
{
	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(t);
	pthread_mutex_lock(&dd_tel.mu);
	rte_tel_data_add_dict_u64(t, "ready", dd_tel.valid);
	rte_tel_data_add_dict_u64(t, "apps", dd_tel.apps);
	rte_tel_data_add_dict_u64(t, "assocs", dd_tel.assocs);
	rte_tel_data_add_dict_u64(t, "held", dd_tel.held);
	rte_tel_data_add_dict_u64(t, "heap_bytes", dd_tel.heap_bytes);
	rte_tel_data_add_dict_u64(t, "region_bytes", dd_tel.region_bytes);
	rte_tel_data_add_dict_u64(t, "mbufs_in_use", dd_tel.mbufs_in_use);
	rte_tel_data_add_dict_u64(t, "attached", dd_tel.attached);
	rte_tel_data_add_dict_u64(t, "detached", dd_tel.detached);
	rte_tel_data_add_dict_u64(t, "refused", dd_tel.refused);
	rte_tel_data_add_dict_u64(t, "pending", dd_tel.pending);
	rte_tel_data_add_dict_u64(t, "bad_hello", dd_tel.bad_hello);
	rte_tel_data_add_dict_u64(t, "hello_timeouts", dd_tel.hello_timeouts);
	rte_tel_data_add_dict_u64(t, "pending_evicted", dd_tel.pending_evicted);
	rte_tel_data_add_dict_u64(t, "welcome_unsent", dd_tel.welcome_unsent);
	rte_tel_data_add_dict_u64(t, "refused_cred", dd_tel.refused_cred);
	rte_tel_data_add_dict_u64(t, "apps_dropped", dd_tel.apps_dropped);
	rte_tel_data_add_dict_u64(t, "orphan_events", dd_tel.orphan_events);
	rte_tel_data_add_dict_u64(t, "orphan_accepts", dd_tel.orphan_accepts);
	dd_tel_counters(t, &dd_tel.sum);
	pthread_mutex_unlock(&dd_tel.mu);
	dd_tel_loop(t);
	return 0;
}

static int
dd_tel_apps(const char *cmd, const char *params, struct rte_tel_data *t)
{
	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(t);
	pthread_mutex_lock(&dd_tel.mu);
	for (unsigned i = 0; i < dd_tel.n; i++) {
		const struct dd_tel_app *a = &dd_tel.app[i];
		struct rte_tel_data *e = rte_tel_data_alloc();
		if (e == NULL)
			break;
		rte_tel_data_start_dict(e);
		rte_tel_data_add_dict_string(e, "name", a->name);
		rte_tel_data_add_dict_u64(e, "threads", a->threads);
		rte_tel_data_add_dict_u64(e, "assocs", a->assocs);
		rte_tel_data_add_dict_u64(e, "listens", a->listens);
		rte_tel_data_add_dict_u64(e, "held_now", a->held);
		dd_tel_counters(e, &a->ctr);
		char key[16];
		snprintf(key, sizeof(key), "%u", a->id);
		rte_tel_data_add_dict_container(t, key, e, 0);
	}
	pthread_mutex_unlock(&dd_tel.mu);
	return 0;
}

static int
dd_tel_workers(const char *cmd, const char *params, struct rte_tel_data *t)
{
	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(t);
	pthread_mutex_lock(&dd_tel.mu);
	for (unsigned w = 0; w < dd_tel.n_workers; w++) {
		const struct dd_tel_worker *k = &dd_tel.wk[w];
		struct rte_tel_data *e = rte_tel_data_alloc();
		if (e == NULL)
			break;
		rte_tel_data_start_dict(e);
		rte_tel_data_add_dict_u64(e, "iterations", k->iterations);
		rte_tel_data_add_dict_u64(e, "assocs", k->assocs);
		rte_tel_data_add_dict_u64(e, "held_now", k->held);
		dd_tel_counters(e, &k->ctr);
		char key[16];
		snprintf(key, sizeof(key), "%u", w);
		rte_tel_data_add_dict_container(t, key, e, 0);
	}
	pthread_mutex_unlock(&dd_tel.mu);
	return 0;
}

void
dd_telemetry_register(struct dd *d)
{
	/* Until the loop's first iteration, its age counts from now. */
	atomic_store_explicit(&dd_loop.last_tsc, rte_get_tsc_cycles(), memory_order_relaxed);
	dd_telemetry_refresh(d);
	rte_telemetry_register_cmd("/dpsctpd/stats", dd_tel_stats,
				   "The sidecar daemon: applications, associations, memory, "
				   "mbufs, counters");
	rte_telemetry_register_cmd("/dpsctpd/apps", dd_tel_apps,
				   "Attached applications and their counters");
	rte_telemetry_register_cmd("/dpsctpd/workers", dd_tel_workers,
				   "The daemon's workers: loops, associations, counters");
}
