/* SPDX-License-Identifier: BSD-3-Clause */
/* The example programs' shared helpers (app_common.h). */
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_ring.h>

#include "apps/common/app_common.h"

int
app_ring_pair(const char *prefix)
{
	char ab_name[RTE_RING_NAMESIZE], ba_name[RTE_RING_NAMESIZE], a[64], b[64];
	snprintf(ab_name, sizeof(ab_name), "%s_ab", prefix);
	snprintf(ba_name, sizeof(ba_name), "%s_ba", prefix);
	snprintf(a, sizeof(a), "%s_a", prefix);
	snprintf(b, sizeof(b), "%s_b", prefix);
	struct rte_ring *ab = rte_ring_create(ab_name, 4096, SOCKET_ID_ANY, 0);
	struct rte_ring *ba = rte_ring_create(ba_name, 4096, SOCKET_ID_ANY, 0);
	if (ab == NULL || ba == NULL)
		return -1;
	if (rte_eth_from_rings(a, &ba, 1, &ab, 1, SOCKET_ID_ANY) < 0 ||
	    rte_eth_from_rings(b, &ab, 1, &ba, 1, SOCKET_ID_ANY) < 0)
		return -1;
	return 0;
}

struct dpsctp *
app_create(struct dpsctp_config *cfg, const char *port, const char *ip, const char *prog)
{
	char err[256];
	if (port != NULL) {
		cfg->n_ports = 0;
		cfg->n_ips = 0;
		if (dpsctp_config_set(cfg, "port", port, err, sizeof(err)) != 0 ||
		    dpsctp_config_set(cfg, "ip", ip, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return NULL;
		}
	}
	struct dpsctp *d = dpsctp_create(cfg, err, sizeof(err));
	if (d == NULL)
		fprintf(stderr, "%s: %s\n", prog, err);
	return d;
}

int
app_init(int *argc, char ***argv, struct dpsctp_config *cfg, const char *prog)
{
	char err[256];
	int n = dpsctp_eal_init(*argc, *argv);
	if (n < 0) {
		fprintf(stderr, "%s: the EAL did not start (see its messages above)\n", prog);
		return 3;
	}
	*argc -= n;
	*argv += n;
	dpsctp_config_defaults(cfg);
	/* The library takes the options it knows; the program's stay in argv. */
	int left = dpsctp_config_parse_args(cfg, *argc, *argv, err, sizeof(err));
	if (left < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 2;
	}
	*argc = left;
	return 0;
}

int
app_one_worker(const struct dpsctp_config *cfg, const char *prog)
{
	if (cfg->queues <= 1)
		return 0;
	fprintf(stderr,
		"%s: --queues %u: this program polls one worker, the other queues would go "
		"unread (dpsctpd serves several workers, dpsctp-scale measures them)\n",
		prog, cfg->queues);
	return 2;
}

void *
app_hold_half(void)
{
	struct rte_malloc_socket_stats st;
	size_t free_bytes = 0;
	if (rte_eal_has_hugepages())
		return NULL; /* the heap grows on demand */
	for (unsigned i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &st) == 0)
			free_bytes += st.heap_freesz_bytes;
	return free_bytes < 2 ? NULL : rte_malloc("app_hold", free_bytes / 2, 0);
}

void
app_release(void *hold)
{
	rte_free(hold);
}
