/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPDK telemetry for the runtime (docs/COUNTERS.md): the instances a
 * process runs, registered at dpsctp_create() when --telemetry is on (the
 * default) and removed at dpsctp_destroy(), and three commands for
 * dpdk-telemetry.py:
 *
 *   /dpsctp/stats[,INSTANCE]          every worker counter summed, with totals
 *   /dpsctp/lcores[,INSTANCE[,WORKER]] per worker: lcore, associations, counters
 *   /dpsctp/assocs[,START[,COUNT]]    associations of instance 0, paged
 *
 * DPDK 22.11 writes a reply into 16 KiB and silently leaves out the entries
 * that do not fit. The replies are sized before they are filled: a page of
 * associations ends where the next row would not fit ("next" continues
 * there; about 44 rows of 360 bytes), and /dpsctp/lcores leaves out the
 * workers that would not fit and names them under "not_shown" (a worker
 * with every counter non-zero takes about 5 KiB: ask it alone).
 *
 * Counters are plain 64-bit loads from the telemetry thread (each whole, not
 * a snapshot of all). Association lists belong to their workers: the
 * telemetry thread never walks them. /dpsctp/assocs posts a request to each
 * worker (the request ring, DP_REQ_CALL) and waits up to 200 ms for the
 * worker to copy a bounded page into static storage; a worker that is not
 * polled answers nothing and the reply says so.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_telemetry.h>

#include "dataplane/dp_req.h"
#include "dataplane/dp_stats.h"
#include "dataplane/dp_telemetry.h"

#define DP_TELEMETRY_MAX 8u
#define DP_TEL_PAGE_MAX	 256u

/*
 * The reply's room: DPDK 22.11's MAX_OUTPUT_LEN (lib/telemetry, 16 KiB, not
 * exported; /info reports it as max_output_len), less the command's prefix
 * and 128 bytes kept for "next", "error" or "not_shown" and the braces.
 */
#define DP_TEL_OUTPUT_MAX 16384u
#define DP_TEL_ROOM(cmd)  (DP_TEL_OUTPUT_MAX - (sizeof(cmd) + 4) - 128u)

/* rte_pdump is on (dpdk-dumpcap can capture our ports): set by dpsctp_eal_init(). */
bool dp_pdump_on;

static pthread_mutex_t dp_tel_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dpsctp *dp_tel_inst[DP_TELEMETRY_MAX];
static bool dp_tel_registered;

/* One association as /dpsctp/assocs shows it, copied on its worker. */
struct dp_tel_assoc {
	uint64_t id;
	unsigned worker;
	uint8_t state;
	struct sctp_addr peer;
	uint16_t local_port, peer_port;
	uint32_t local_vtag, peer_vtag;
	struct dpsctp_assoc_stats st;
	struct dpsctp_path_stats p0;
};

/* The page being filled: one request at a time (dp_tel_lock). */
static struct {
	struct dp_tel_assoc rows[DP_TEL_PAGE_MAX];
	uint32_t n;    /* rows filled */
	uint32_t skip; /* associations still to skip (START) */
	uint32_t want; /* rows wanted (COUNT) */
	uint32_t more; /* associations past the page exist */
	volatile uint32_t answered;
	uint32_t generation; /* a late worker writes nothing into a newer request */
} dp_tel_page;

static const char *const dp_tel_state_names[] = {
	"CLOSED",	    "COOKIE-WAIT",   "COOKIE-ECHOED",	  "ESTABLISHED",
	"SHUTDOWN-PENDING", "SHUTDOWN-SENT", "SHUTDOWN-RECEIVED", "SHUTDOWN-ACK-SENT",
};

/*
 * The extensions an association negotiated, by the names --extensions
 * takes (docs/CONFIG.md): "pr-sctp,i-data", "" for none.
 */
static void
dp_tel_extensions(uint32_t ext, char *buf, size_t len)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} names[] = {
		{ DPSCTP_EXT_PR_SCTP, "pr-sctp" },
		{ DPSCTP_EXT_I_DATA, "i-data" },
		{ DPSCTP_EXT_RECONFIG, "reconfig" },
	};
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < RTE_DIM(names); i++)
		if ((ext & names[i].bit) != 0 && k < len)
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k != 0 ? "," : "",
					      names[i].name);
}

/* Bytes of an unsigned number in JSON. */
static size_t
dp_tel_digits(uint64_t v)
{
	size_t n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Bytes of `"name":v,` (the comma or the closing brace). */
static size_t
dp_tel_u64_len(const char *name, uint64_t v)
{
	return strlen(name) + 4 + dp_tel_digits(v);
}

static struct dpsctp *
dp_tel_pick(const char *params)
{
	unsigned i = params != NULL && *params != '\0' ? (unsigned)atoi(params) : 0;
	return i < DP_TELEMETRY_MAX ? dp_tel_inst[i] : NULL;
}

/*
 * Telemetry keys may not contain '.': "l3.x", "ep.x" and "assoc.x" go into
 * dicts named "l3", "ep" and "assoc" under their short names.
 */
struct dp_tel_groups {
	struct rte_tel_data *sub[3];
};

static const char *const dp_tel_prefixes[3] = { "l3", "ep", "assoc" };

static void
dp_tel_put(struct rte_tel_data *t, struct dp_tel_groups *g, const char *name, uint64_t v)
{
	const char *dot = strchr(name, '.');
	if (dot == NULL) {
		rte_tel_data_add_dict_u64(t, name, v);
		return;
	}
	for (unsigned k = 0; k < 3; k++)
		if (strncmp(name, dp_tel_prefixes[k], (size_t)(dot - name)) == 0 &&
		    dp_tel_prefixes[k][dot - name] == '\0') {
			if (g->sub[k] == NULL) {
				g->sub[k] = rte_tel_data_alloc();
				if (g->sub[k] == NULL)
					return;
				rte_tel_data_start_dict(g->sub[k]);
			}
			rte_tel_data_add_dict_u64(g->sub[k], dot + 1, v);
			return;
		}
}

static void
dp_tel_groups_add(struct rte_tel_data *t, struct dp_tel_groups *g)
{
	for (unsigned k = 0; k < 3; k++)
		if (g->sub[k] != NULL)
			rte_tel_data_add_dict_container(t, dp_tel_prefixes[k], g->sub[k], 0);
}

static int
dp_tel_stats(const char *cmd, const char *params, struct rte_tel_data *t)
{
	(void)cmd;
	pthread_mutex_lock(&dp_tel_lock);
	struct dpsctp *d = dp_tel_pick(params);
	rte_tel_data_start_dict(t);
	if (d == NULL) {
		rte_tel_data_add_dict_string(t, "error", "no such dpsctp instance");
		pthread_mutex_unlock(&dp_tel_lock);
		return 0;
	}
	rte_tel_data_add_dict_u64(t, "workers", d->n_workers);
	rte_tel_data_add_dict_u64(t, "associations", dpsctp_assoc_count(d));
	rte_tel_data_add_dict_string(t, "steering", d->flow_hw ? "rte_flow" : "software");
	rte_tel_data_add_dict_string(t, "port", d->ports[0].name);
	/* Several ports: the others by number ("port1" ...), as --port numbers them. */
	for (unsigned p = 1; p < d->n_ports; p++) {
		char key[16];
		snprintf(key, sizeof(key), "port%u", p);
		rte_tel_data_add_dict_string(t, key, d->ports[p].name);
	}
	/* Frames by port ("ports": {"0": {name, rx_packets, tx_packets}, ...}). */
	struct rte_tel_data *ports = rte_tel_data_alloc();
	if (ports != NULL) {
		rte_tel_data_start_dict(ports);
		for (unsigned p = 0; p < d->n_ports; p++) {
			struct dpsctp_port_frames ps;
			struct rte_tel_data *e = rte_tel_data_alloc();
			if (e == NULL || dpsctp_port_frames(d, p, &ps) != 0) {
				rte_tel_data_free(e);
				continue;
			}
			char key[16];
			snprintf(key, sizeof(key), "%u", p);
			rte_tel_data_start_dict(e);
			rte_tel_data_add_dict_string(e, "name", d->ports[p].name);
			rte_tel_data_add_dict_u64(e, "rx_packets", ps.rx_packets);
			rte_tel_data_add_dict_u64(e, "tx_packets", ps.tx_packets);
			rte_tel_data_add_dict_container(ports, key, e, 0);
		}
		rte_tel_data_add_dict_container(t, "ports", ports, 0);
	}
	rte_tel_data_add_dict_string(t, "pdump", dp_pdump_on ? "on" : "off (no hugepages)");
	struct dp_tel_groups g = { { NULL, NULL, NULL } };
	for (unsigned i = 0;; i++) {
		const char *name;
		uint64_t sum = 0;
		for (unsigned w = 0; w < d->n_workers; w++) {
			uint64_t v = dp_worker_counter(d, w, i, &name);
			if (name != NULL)
				sum += v;
		}
		if (name == NULL)
			break;
		dp_tel_put(t, &g, name, sum);
	}
	dp_tel_groups_add(t, &g);
	pthread_mutex_unlock(&dp_tel_lock);
	return 0;
}

/*
 * An upper bound of a worker's entry in /dpsctp/lcores: its key, the lcore
 * (a number or the 25-byte string), associations and every non-zero
 * counter under its full name (the group names it saves pay for the groups'
 * own keys and braces).
 */
static size_t
dp_tel_worker_len(const struct dpsctp *d, unsigned w)
{
	size_t n = 16 + 8 + 30 + dp_tel_u64_len("associations", d->w[w]->n_conns) + 3 * 8;
	for (unsigned i = 0;; i++) {
		const char *name;
		uint64_t v = dp_worker_counter(d, w, i, &name);
		if (name == NULL)
			break;
		if (v != 0)
			n += dp_tel_u64_len(name, v);
	}
	return n;
}

static int
dp_tel_lcores(const char *cmd, const char *params, struct rte_tel_data *t)
{
	(void)cmd;
	unsigned inst = 0, only = UINT32_MAX;
	if (params != NULL && *params != '\0' && sscanf(params, "%u,%u", &inst, &only) < 1) {
		rte_tel_data_start_dict(t);
		rte_tel_data_add_dict_string(t, "error", "params: INSTANCE[,WORKER]");
		return 0;
	}
	pthread_mutex_lock(&dp_tel_lock);
	struct dpsctp *d = inst < DP_TELEMETRY_MAX ? dp_tel_inst[inst] : NULL;
	rte_tel_data_start_dict(t);
	if (d == NULL || (only != UINT32_MAX && only >= d->n_workers)) {
		rte_tel_data_add_dict_string(
			t, "error", d == NULL ? "no such dpsctp instance" : "no such worker");
		pthread_mutex_unlock(&dp_tel_lock);
		return 0;
	}
	size_t room = DP_TEL_ROOM("/dpsctp/lcores");
	unsigned not_shown = 0;
	for (unsigned w = 0; w < d->n_workers; w++) {
		if (only != UINT32_MAX && w != only)
			continue;
		size_t len = dp_tel_worker_len(d, w);
		if (len > room) {
			not_shown++;
			continue;
		}
		room -= len;
		struct rte_tel_data *c = rte_tel_data_alloc();
		char key[24];
		if (c == NULL)
			break;
		rte_tel_data_start_dict(c);
		if (d->lcore_of[w] == RTE_MAX_LCORE)
			rte_tel_data_add_dict_string(c, "lcore", "polled by the application");
		else
			rte_tel_data_add_dict_u64(c, "lcore", d->lcore_of[w]);
		rte_tel_data_add_dict_u64(c, "associations", d->w[w]->n_conns);
		struct dp_tel_groups g = { { NULL, NULL, NULL } };
		for (unsigned i = 0;; i++) {
			const char *name;
			uint64_t v = dp_worker_counter(d, w, i, &name);
			if (name == NULL)
				break;
			if (v != 0)
				dp_tel_put(c, &g, name, v);
		}
		dp_tel_groups_add(c, &g);
		snprintf(key, sizeof(key), "worker%u", w);
		rte_tel_data_add_dict_container(t, key, c, 0);
	}
	if (not_shown != 0) {
		char msg[96];
		snprintf(msg, sizeof(msg),
			 "%u workers do not fit in one reply: ask /dpsctp/lcores,%u,WORKER",
			 not_shown, inst);
		rte_tel_data_add_dict_string(t, "not_shown", msg);
	}
	pthread_mutex_unlock(&dp_tel_lock);
	return 0;
}

/* On the worker: copy its part of the page. */
static void
dp_tel_collect(struct dpsctp *d, unsigned worker, void *arg)
{
	uint32_t gen = (uint32_t)(uintptr_t)arg;
	if (gen != dp_tel_page.generation)
		return; /* the request timed out and another began */
	for (const struct dpsctp_assoc *c = d->w[worker]->conns; c != NULL; c = c->next) {
		if (dp_tel_page.skip != 0) {
			dp_tel_page.skip--;
			continue;
		}
		if (dp_tel_page.n == dp_tel_page.want) {
			dp_tel_page.more = 1;
			break;
		}
		struct dp_tel_assoc *r = &dp_tel_page.rows[dp_tel_page.n++];
		r->id = c->id;
		r->worker = worker;
		r->state = c->a.state;
		r->peer = sctp_path_addr(sctp_paths_get_const(&c->a.paths, 0));
		r->local_port = c->a.local_port;
		r->peer_port = c->a.peer_port;
		r->local_vtag = c->a.local_vtag;
		r->peer_vtag = c->a.peer_vtag;
		(void)dpsctp_assoc_get_stats(c, &r->st);
		(void)dpsctp_path_get_stats(c, 0, &r->p0);
	}
	__atomic_add_fetch(&dp_tel_page.answered, 1, __ATOMIC_RELEASE);
}

/*
 * The page from the workers one after the other, each continuing where the
 * last stopped (the telemetry thread never walks a worker's list); what
 * went wrong goes into t as "error".
 */
static void
dp_tel_gather(struct dpsctp *d, unsigned start, unsigned count, struct rte_tel_data *t)
{
	dp_tel_page.n = 0;
	dp_tel_page.skip = start;
	dp_tel_page.want = count;
	dp_tel_page.more = 0;
	for (unsigned w = 0; w < d->n_workers && !dp_tel_page.more; w++) {
		uint32_t gen = ++dp_tel_page.generation;
		dp_tel_page.answered = 0;
		int rc = dp_req_call(d->w[w], dp_tel_collect, (void *)(uintptr_t)gen);
		if (rc != 0) {
			rte_tel_data_add_dict_string(t, "error",
						     rc == -ENOMEM ? "request pool empty"
								   : "request ring full");
			break;
		}
		uint64_t until = rte_get_tsc_cycles() + rte_get_tsc_hz() / 5;
		while (__atomic_load_n(&dp_tel_page.answered, __ATOMIC_ACQUIRE) == 0 &&
		       rte_get_tsc_cycles() < until)
			rte_delay_us_sleep(200);
		if (dp_tel_page.answered == 0) {
			dp_tel_page.generation++; /* a late answer writes nothing */
			char msg[64];
			snprintf(msg, sizeof(msg), "worker %u did not answer: not polled", w);
			rte_tel_data_add_dict_string(t, "error", msg);
			break;
		}
	}
}

static int
dp_tel_assocs(const char *cmd, const char *params, struct rte_tel_data *t)
{
	(void)cmd;
	unsigned start = 0, count = 64;
	if (params != NULL && *params != '\0' && sscanf(params, "%u,%u", &start, &count) < 1) {
		rte_tel_data_start_dict(t);
		rte_tel_data_add_dict_string(t, "error", "params: START[,COUNT]");
		return 0;
	}
	if (count > DP_TEL_PAGE_MAX)
		count = DP_TEL_PAGE_MAX;
	pthread_mutex_lock(&dp_tel_lock);
	struct dpsctp *d = dp_tel_inst[0];
	rte_tel_data_start_dict(t);
	if (d == NULL) {
		rte_tel_data_add_dict_string(t, "error", "no dpsctp instance");
		pthread_mutex_unlock(&dp_tel_lock);
		return 0;
	}
	dp_tel_gather(d, start, count, t);
	/* Rows while they fit (and the dict's 256 entries less "next" and "error"). */
	size_t room = DP_TEL_ROOM("/dpsctp/assocs");
	uint32_t shown = 0;
	for (; shown < dp_tel_page.n && shown < RTE_TEL_MAX_DICT_ENTRIES - 2; shown++) {
		const struct dp_tel_assoc *r = &dp_tel_page.rows[shown];
		char key[32], addr[INET6_ADDRSTRLEN] = "", ext[32];
		const char *state = r->state < 8 ? dp_tel_state_names[r->state] : "?";
		inet_ntop(r->peer.family == SCTP_ADDR_V6 ? AF_INET6 : AF_INET, r->peer.bytes, addr,
			  sizeof(addr));
		snprintf(key, sizeof(key), "%llu", (unsigned long long)r->id);
		dp_tel_extensions(r->st.extensions, ext, sizeof(ext));
		const struct {
			const char *name;
			uint64_t v;
		} f[] = {
			{ "worker", r->worker },
			{ "local_port", r->local_port },
			{ "peer_port", r->peer_port },
			{ "local_vtag", r->local_vtag },
			{ "peer_vtag", r->peer_vtag },
			{ "paths", r->st.paths },
			{ "msgs_sent", r->st.msgs_sent },
			{ "msgs_recv", r->st.msgs_recv },
			{ "bytes_sent", r->st.bytes_sent },
			{ "bytes_recv", r->st.bytes_recv },
			{ "data_chunks_rtx", r->st.data_chunks_rtx },
			{ "srtt_us", r->p0.srtt_us },
			{ "rto_us", r->p0.rto_us },
			{ "cwnd", r->p0.cwnd },
			{ "mtu", r->p0.mtu },
			{ "abandoned_msgs", r->st.abandoned_msgs },
			{ "abandoned_bytes", r->st.abandoned_bytes },
			{ "fwd_tsn_out", r->st.fwd_tsn_out },
			{ "fwd_tsn_in", r->st.fwd_tsn_in },
			{ "reconf_requests", r->st.reconf_requests },
			{ "reconf_rtx", r->st.reconf_rtx },
			{ "reconf_peer_requests", r->st.reconf_peer_requests },
			{ "reconf_denied", r->st.reconf_denied },
			{ "reconf_malformed", r->st.reconf_malformed },
		};
		/* "key":{"state":"S","peer":"A","extensions":"E",...}, */
		size_t len = strlen(key) + 5 + (8 + 6 + strlen(state)) + (7 + 6 + strlen(addr)) +
			     (10 + 6 + strlen(ext));
		for (size_t k = 0; k < RTE_DIM(f); k++)
			len += dp_tel_u64_len(f[k].name, f[k].v);
		if (len > room)
			break;
		room -= len;
		struct rte_tel_data *c = rte_tel_data_alloc();
		if (c == NULL)
			break;
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_string(c, "state", state);
		rte_tel_data_add_dict_string(c, "peer", addr);
		rte_tel_data_add_dict_string(c, "extensions", ext);
		for (size_t k = 0; k < RTE_DIM(f); k++)
			rte_tel_data_add_dict_u64(c, f[k].name, f[k].v);
		rte_tel_data_add_dict_container(t, key, c, 0);
	}
	bool rest = shown < dp_tel_page.n || dp_tel_page.more;
	rte_tel_data_add_dict_int(t, "next", rest ? (int)(start + shown) : -1);
	pthread_mutex_unlock(&dp_tel_lock);
	return 0;
}

void
dp_telemetry_add(struct dpsctp *d)
{
	pthread_mutex_lock(&dp_tel_lock);
	if (!dp_tel_registered) {
		dp_tel_registered = true;
		(void)rte_telemetry_register_cmd(
			"/dpsctp/stats", dp_tel_stats,
			"Every dpsctp worker counter, summed. Param: instance");
		(void)rte_telemetry_register_cmd(
			"/dpsctp/lcores", dp_tel_lcores,
			"Per dpsctp worker: lcore, associations, counters. "
			"Param: instance");
		(void)rte_telemetry_register_cmd(
			"/dpsctp/assocs", dp_tel_assocs,
			"dpsctp associations, paged. Params: START[,COUNT]");
	}
	for (unsigned i = 0; i < DP_TELEMETRY_MAX; i++)
		if (dp_tel_inst[i] == NULL) {
			dp_tel_inst[i] = d;
			break;
		}
	pthread_mutex_unlock(&dp_tel_lock);
}

void
dp_telemetry_remove(struct dpsctp *d)
{
	pthread_mutex_lock(&dp_tel_lock);
	for (unsigned i = 0; i < DP_TELEMETRY_MAX; i++)
		if (dp_tel_inst[i] == d)
			dp_tel_inst[i] = NULL;
	pthread_mutex_unlock(&dp_tel_lock);
}
