/* SPDX-License-Identifier: BSD-3-Clause */
// The attack bench and the attacks (dp_attack.h says what each part is).
#include "dataplane/tests/dp_attack.h"

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>

#include <algorithm>
#include <chrono>
#include <cstring>

extern "C" {
#include "drivers/crc32c/crc32c.h"
}

namespace dp_attack {

namespace {

const uint8_t kClientIp[4] = { 10, 0, 0, 1 }, kServerIp[4] = { 10, 0, 0, 2 };
const uint8_t kRawIp[4] = { 10, 0, 0, 9 }, kRouterIp[4] = { 10, 0, 0, 254 };
const uint8_t kRawMac[6] = { 0x02, 0, 0, 0, 0, 0x09 };
const uint8_t kEvilMac[6] = { 0x02, 0xee, 0xee, 0xee, 0xee, 0x01 };
constexpr size_t kMaxFrame = 9216 + 64;

uint16_t
csum16(const uint8_t *p, size_t n)
{
	uint32_t s = 0;
	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

bool
tsn_gt(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) > 0;
}

// A tag that is not `right` (nor 0), different for every i.
uint32_t
wrong_tag(uint32_t right, unsigned i)
{
	uint32_t t = right ^ (0x9e3779b9u * (i + 1u));
	return t == right || t == 0 ? right ^ 0x1u : t;
}

// An SCTP packet from the client's address and port to the server's.
Bytes
from_client(const AttackBed &b, Bytes sctp)
{
	return sctp_frame(b.s_mac, kEvilMac, kClientIp, kServerIp, std::move(sctp));
}

// An Ethernet frame's IPv4 packet, or NULL.
const uint8_t *
ip4_of(const uint8_t *f, size_t n, size_t *ihl)
{
	if (n < 34 || f[12] != 0x08 || f[13] != 0x00 || (f[14] >> 4) != 4)
		return nullptr;
	*ihl = (size_t)(f[14] & 0xf) * 4;
	return n >= 14 + *ihl + 12 ? f + 14 : nullptr;
}

} // namespace

uint32_t
msg_len(uint32_t k)
{
	return 20u + k % 300u;
}

uint8_t
msg_byte(uint32_t k, uint32_t i)
{
	return (uint8_t)(k * 37u + i * 11u + 5u);
}

void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

Bytes
sctp_common(uint16_t sport, uint16_t dport, uint32_t vtag)
{
	Bytes p(12, 0);
	p[0] = (uint8_t)(sport >> 8);
	p[1] = (uint8_t)sport;
	p[2] = (uint8_t)(dport >> 8);
	p[3] = (uint8_t)dport;
	put32(p.data() + 4, vtag);
	return p;
}

void
sctp_chunk(Bytes &p, uint8_t type, uint8_t flags, const Bytes &value)
{
	size_t len = 4 + value.size();
	p.insert(p.end(), { type, flags, (uint8_t)(len >> 8), (uint8_t)len });
	p.insert(p.end(), value.begin(), value.end());
	while (p.size() % 4)
		p.push_back(0);
}

Bytes
ipv4_frame(const uint8_t dst_mac[6], const uint8_t src_mac[6], const uint8_t src[4],
	   const uint8_t dst[4], uint8_t proto, const Bytes &payload)
{
	Bytes f(14 + 20 + payload.size(), 0);
	memcpy(f.data(), dst_mac, 6);
	memcpy(f.data() + 6, src_mac, 6);
	f[12] = 0x08;
	uint8_t *ip = f.data() + 14;
	size_t tot = 20 + payload.size();
	ip[0] = 0x45;
	ip[2] = (uint8_t)(tot >> 8);
	ip[3] = (uint8_t)tot;
	ip[6] = 0x40; // DF
	ip[8] = 64;
	ip[9] = proto;
	memcpy(ip + 12, src, 4);
	memcpy(ip + 16, dst, 4);
	uint16_t c = csum16(ip, 20);
	ip[10] = (uint8_t)(c >> 8);
	ip[11] = (uint8_t)c;
	if (!payload.empty())
		memcpy(f.data() + 34, payload.data(), payload.size());
	return f;
}

Bytes
sctp_frame(const uint8_t dst_mac[6], const uint8_t src_mac[6], const uint8_t src[4],
	   const uint8_t dst[4], Bytes sctp)
{
	crc32c_sctp_fill(sctp.data(), sctp.size());
	return ipv4_frame(dst_mac, src_mac, src, dst, 132, sctp);
}

Bytes
icmp_to_server(const AttackBed &b, uint8_t code, uint16_t mtu, uint32_t vtag, bool data,
	       uint32_t tsn)
{
	// The quoted packet: one the server would have sent to the client.
	Bytes q(20, 0);
	q[0] = 0x45;
	q[2] = 0x05;
	q[3] = 0xdc; // 1500
	q[6] = 0x40;
	q[8] = 64;
	q[9] = 132;
	memcpy(q.data() + 12, kServerIp, 4);
	memcpy(q.data() + 16, kClientIp, 4);
	Bytes sctp = sctp_common(kServerPort, b.c_port, vtag);
	Bytes v(12, 0);
	put32(v.data(), tsn); // DATA: TSN; SACK: cumulative TSN ack
	sctp_chunk(sctp, data ? 0 : 3, data ? 3 : 0, v);
	q.insert(q.end(), sctp.begin(), sctp.end());
	Bytes icmp = { 3, code, 0, 0, 0, 0, (uint8_t)(mtu >> 8), (uint8_t)mtu };
	icmp.insert(icmp.end(), q.begin(), q.end());
	uint16_t c = csum16(icmp.data(), icmp.size());
	icmp[2] = (uint8_t)(c >> 8);
	icmp[3] = (uint8_t)c;
	return ipv4_frame(b.s_mac, kEvilMac, kRouterIp, kServerIp, 1, icmp);
}

// ---- the bench ----

namespace {

void
client_event(dpsctp_assoc *a, const dpsctp_event *ev, void *arg)
{
	AttackBed *b = static_cast<AttackBed *>(arg);
	if (ev->type == DPSCTP_EV_COMM_UP) {
		b->ca = a;
		b->client_up = true;
	}
	if (ev->type == DPSCTP_EV_COMM_LOST || ev->type == DPSCTP_EV_CANT_START ||
	    ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE) {
		b->client_lost = true;
		b->ca = nullptr;
	}
}

void
server_event(dpsctp_assoc *a, const dpsctp_event *ev, void *arg)
{
	AttackBed *b = static_cast<AttackBed *>(arg);
	if (ev->type == DPSCTP_EV_COMM_UP) {
		ServerAssoc s;
		s.a = a;
		s.up = true;
		b->sa.push_back(s);
		return;
	}
	if (ev->type == DPSCTP_EV_PATH_MTU)
		for (ServerAssoc &s : b->sa)
			if (s.a == a)
				s.mtu_events++;
	if (ev->type == DPSCTP_EV_COMM_LOST || ev->type == DPSCTP_EV_SHUTDOWN_COMPLETE)
		for (ServerAssoc &s : b->sa)
			if (s.a == a && !s.ended) {
				s.ended = true;
				s.a = nullptr;
			}
}

void
server_recv(dpsctp_assoc *a, const dpsctp_msg *m, void *arg)
{
	AttackBed *b = static_cast<AttackBed *>(arg);
	static thread_local Bytes buf;
	for (size_t i = 0; i < b->sa.size(); i++) {
		ServerAssoc &s = b->sa[i];
		if (s.a != a)
			continue;
		s.msgs++;
		s.bytes += m->len;
		if (i != 0)
			return; // an attacker's association: counted, not checked
		b->received++;
		b->received_bytes += m->len;
		uint32_t k = m->ppid;
		buf.resize(m->len);
		bool ok = (m->flags & (DPSCTP_MSG_MORE | DPSCTP_MSG_CONT)) == 0 &&
			  k < b->got.size() && m->len == msg_len(k) &&
			  dpsctp_msg_copy(m, buf.data(), buf.size()) == m->len;
		for (uint32_t j = 0; ok && j < m->len; j++)
			ok = buf[j] == msg_byte(k, j);
		if (!ok) {
			b->bad++;
			return;
		}
		if (b->got[k] < 255)
			b->got[k]++;
		return;
	}
}

} // namespace

const dpsctp_callbacks kClientCb = { nullptr, client_event, nullptr };
const dpsctp_callbacks kServerCb = { server_recv, server_event, nullptr };

std::string
AttackBed::open(const std::string &tag, const Opts &client, const Opts &server)
{
	tag_ = tag;
	got.assign(msg_limit, 0);
	rte_ring **rings[] = { &c_tx, &c_rx, &s_tx, &s_rx };
	const char *names[] = { "actx", "acrx", "astx", "asrx" };
	for (int i = 0; i < 4; i++) {
		*rings[i] = rte_ring_create((names[i] + tag).c_str(), 4096, SOCKET_ID_ANY, 0);
		if (*rings[i] == nullptr)
			return std::string("rte_ring_create: ") + rte_strerror(rte_errno);
	}
	bool init_queue = false;
	for (const auto &o : server)
		init_queue |= o.first == "init-queue" && o.second != "off";
	if (init_queue) {
		s_rx_init = rte_ring_create(("asri" + tag).c_str(), 4096, SOCKET_ID_ANY, 0);
		s_tx_idle = rte_ring_create(("asti" + tag).c_str(), 64, SOCKET_ID_ANY, 0);
		if (s_rx_init == nullptr || s_tx_idle == nullptr)
			return std::string("rte_ring_create: ") + rte_strerror(rte_errno);
	}
	rte_ring *srx[2] = { s_rx, s_rx_init }, *stx[2] = { s_tx, s_tx_idle };
	unsigned sq = init_queue ? 2 : 1;
	cport_id = rte_eth_from_rings(("atkc" + tag).c_str(), &c_rx, 1, &c_tx, 1, SOCKET_ID_ANY);
	sport_id = rte_eth_from_rings(("atks" + tag).c_str(), srx, sq, stx, sq, SOCKET_ID_ANY);
	if (cport_id < 0 || sport_id < 0)
		return std::string("rte_eth_from_rings: ") + rte_strerror(rte_errno);
	// Room for a jumbo frame in one segment (the SACK attack's 9,000 bytes).
	apool = rte_pktmbuf_pool_create(("atkp" + tag).c_str(), 4095, 128, 0,
					9216 + 128 + RTE_PKTMBUF_HEADROOM, SOCKET_ID_ANY);
	if (apool == nullptr)
		return std::string("attacker pool: ") + rte_strerror(rte_errno);

	dpsctp **inst[] = { &c, &s };
	const Opts *opts[] = { &client, &server };
	int ids[] = { cport_id, sport_id };
	for (int k = 0; k < 2; k++) {
		dpsctp_config cfg;
		char err[256] = "", name[RTE_ETH_NAME_MAX_LEN];
		dpsctp_config_defaults(&cfg);
		if (rte_eth_dev_get_name_by_port((uint16_t)ids[k], name) != 0)
			return "no ethdev name";
		Opts all = { { "port", std::string("ethdev:") + name },
			     { "ip", k == 0 ? "10.0.0.1/16" : "10.0.0.2/16" },
			     { "queues", "1" },
			     { "max-assocs", "64" },
			     { "max-handshakes", "64" },
			     { "mbufs", "16384" } };
		if (k == 1)
			all.push_back({ "sctp-port", std::to_string(kServerPort) });
		all.insert(all.end(), opts[k]->begin(), opts[k]->end());
		for (const auto &o : all)
			if (dpsctp_config_set(&cfg, o.first.c_str(), o.second.c_str(), err,
					      sizeof(err)) != 0)
				return std::string("option ") + o.first + ": " + err;
		*inst[k] = dpsctp_create(&cfg, err, sizeof(err));
		if (*inst[k] == nullptr)
			return std::string("dpsctp_create: ") + err;
	}
	dpsctp_mac(c, c_mac);
	dpsctp_mac(s, s_mac);
	if (dpsctp_listen(s, kServerPort, &kServerCb, this) != 0)
		return "dpsctp_listen failed";
	return "";
}

bool
AttackBed::connect(uint64_t max_steps)
{
	sctp_addr peer = { 4, { 10, 0, 0, 2 } };
	int rc = 0;
	if (dpsctp_connect(c, 0, &peer, 1, kServerPort, 0, &kClientCb, this, &rc) == nullptr)
		return false;
	for (uint64_t i = 0; i < max_steps && !(client_up && !sa.empty()) && !client_lost; i++)
		step();
	return client_up && !sa.empty() && tag_s != 0 && tag_c != 0;
}

void
AttackBed::stop()
{
	for (dpsctp *d : { c, s })
		if (d != nullptr)
			(void)dpsctp_stop(d, 100);
	for (rte_ring *r : { c_tx, c_rx, s_tx, s_rx, s_rx_init, s_tx_idle }) {
		void *m;
		while (r != nullptr && rte_ring_dequeue(r, &m) == 0)
			rte_pktmbuf_free((rte_mbuf *)m);
	}
	to_attacker.clear();
}

void
AttackBed::close()
{
	stop();
	dpsctp_destroy(c);
	dpsctp_destroy(s);
	c = s = nullptr;
	for (int id : { cport_id, sport_id })
		if (id >= 0 && rte_eth_dev_is_valid_port((uint16_t)id))
			rte_eth_dev_close((uint16_t)id);
	cport_id = sport_id = -1;
	for (rte_ring **r : { &c_tx, &c_rx, &s_tx, &s_rx, &s_rx_init, &s_tx_idle }) {
		rte_ring_free(*r);
		*r = nullptr;
	}
	rte_mempool_free(apool);
	apool = nullptr;
}

AttackBed::~AttackBed()
{
	close();
}

void
AttackBed::tap_c2s(const uint8_t *f, size_t n)
{
	size_t ihl;
	const uint8_t *ip = ip4_of(f, n, &ihl);
	if (ip == nullptr || ip[9] != 132)
		return;
	const uint8_t *p = ip + ihl;
	size_t len = n - 14 - ihl;
	uint32_t vtag = get32(p + 4);
	c_port = (uint16_t)(p[0] << 8 | p[1]);
	for (size_t o = 12; o + 4 <= len;) {
		uint8_t type = p[o];
		size_t cl = (size_t)(p[o + 2] << 8 | p[o + 3]);
		if (cl < 4 || o + cl > len)
			break;
		if (type != 1 && vtag != 0)
			tag_s = vtag;
		if ((type == 0 || type == 64) && cl >= 8) {
			uint32_t tsn = get32(p + o + 4);
			if (c_hi_tsn == 0 || tsn_gt(tsn, c_hi_tsn))
				c_hi_tsn = tsn;
		}
		if (type == 10 && client_cookie_echo.empty())
			client_cookie_echo.assign(f, f + n);
		o += (cl + 3) & ~(size_t)3;
	}
}

bool
AttackBed::tap_s2c(const uint8_t *f, size_t n)
{
	if (n >= 42 && f[12] == 0x08 && f[13] == 0x06)
		return memcmp(f + 38, kClientIp, 4) == 0; // ARP: only the client's
	size_t ihl;
	const uint8_t *ip = ip4_of(f, n, &ihl);
	if (ip == nullptr)
		return true;
	if (memcmp(ip + 16, kClientIp, 4) != 0)
		return false;
	if (ip[9] != 132)
		return true;
	const uint8_t *p = ip + ihl;
	size_t len = n - 14 - ihl;
	uint32_t vtag = get32(p + 4);
	if (vtag != 0)
		tag_c = vtag;
	for (size_t o = 12; o + 4 <= len;) {
		size_t cl = (size_t)(p[o + 2] << 8 | p[o + 3]);
		if (cl < 4 || o + cl > len)
			break;
		if (p[o] == 3 && cl >= 16) {
			s_sack_cum = get32(p + o + 4);
			have_sack = true;
		}
		o += (cl + 3) & ~(size_t)3;
	}
	return true;
}

void
AttackBed::wire(rte_ring *from, rte_ring *to, bool c2s)
{
	static thread_local uint8_t scratch[kMaxFrame];
	void *burst[64];
	unsigned n = rte_ring_dequeue_burst(from, burst, 64, nullptr);
	for (unsigned i = 0; i < n; i++) {
		rte_mbuf *m = (rte_mbuf *)burst[i];
		size_t len = std::min<size_t>(m->pkt_len, kMaxFrame);
		const uint8_t *f = (const uint8_t *)rte_pktmbuf_read(m, 0, (uint32_t)len, scratch);
		bool forward = true;
		if (f != nullptr) {
			if (c2s) {
				tap_c2s(f, len);
			} else if (!tap_s2c(f, len)) {
				forward = false;
				if (!(len >= 14 && f[12] == 0x08 && f[13] == 0x06))
					to_attacker.emplace_back(f, f + len);
			}
		}
		if (c2s && f != nullptr)
			to = server_rx(f, len);
		if (!forward || rte_ring_enqueue(to, m) != 0) {
			if (forward)
				wire_dropped++;
			rte_pktmbuf_free(m);
		}
	}
}

void
AttackBed::step()
{
	wire(c_tx, s_rx, true);
	if (!hold_s2c)
		wire(s_tx, c_rx, false);
	raw_receive();
	uint64_t t0 = rte_rdtsc();
	dpsctp_poll(c, 0);
	uint64_t t1 = rte_rdtsc();
	dpsctp_poll(s, 0);
	uint64_t t2 = rte_rdtsc();
	victim_cycles += victim_is_client ? t1 - t0 : t2 - t1;
}

void
AttackBed::pump(uint64_t total)
{
	static thread_local Bytes body;
	total = std::min<uint64_t>(total, got.size());
	while (sent < total && ca != nullptr && client_up) {
		uint32_t k = (uint32_t)sent;
		body.resize(msg_len(k));
		for (uint32_t i = 0; i < body.size(); i++)
			body[i] = msg_byte(k, i);
		dpsctp_sndinfo si = { 0, k, 0, DPSCTP_PR_NONE, 0, 0 };
		if (dpsctp_send_bytes(ca, &si, body.data(), body.size()) != 0)
			break;
		sent++;
	}
}

bool
AttackBed::inject(const Bytes &f, bool to_client)
{
	rte_mbuf *m = rte_pktmbuf_alloc(apool);
	if (m == nullptr) {
		refused++;
		return false;
	}
	char *p = rte_pktmbuf_append(m, (uint16_t)f.size());
	if (p == nullptr) {
		rte_pktmbuf_free(m);
		refused++;
		return false;
	}
	memcpy(p, f.data(), f.size());
	if (rte_ring_enqueue(to_client ? c_rx : server_rx(f.data(), f.size()), m) != 0) {
		rte_pktmbuf_free(m);
		refused++;
		return false;
	}
	injected++;
	return true;
}

rte_ring *
AttackBed::server_rx(const uint8_t *f, size_t n) const
{
	if (s_rx_init == nullptr)
		return s_rx;
	size_t ihl;
	const uint8_t *ip = ip4_of(f, n, &ihl);
	if (ip == nullptr || ip[9] != 132 || n < 14 + ihl + 12)
		return s_rx;
	return get32(ip + ihl + 4) == 0 ? s_rx_init : s_rx;
}

bool
AttackBed::inject_attack(const Attack &at, unsigned i)
{
	return inject(at.frame(*this, i), at.victim_client);
}

uint64_t
AttackBed::counter(const dpsctp *d, const std::string &want)
{
	const char *name;
	for (unsigned i = 0;; i++) {
		uint64_t v = dpsctp_worker_counter(d, 0, i, &name);
		if (name == nullptr)
			return UINT64_MAX;
		if (want == name)
			return v;
	}
}

std::map<std::string, uint64_t>
AttackBed::counters(const dpsctp *d)
{
	std::map<std::string, uint64_t> m;
	const char *name;
	for (unsigned i = 0;; i++) {
		uint64_t v = dpsctp_worker_counter(d, 0, i, &name);
		if (name == nullptr)
			break;
		m[name] = v;
	}
	return m;
}

unsigned
AttackBed::in_use(const dpsctp *d)
{
	return rte_mempool_in_use_count(dpsctp_pktmbuf_pool(d));
}

Bytes
AttackBed::raw_frame(Bytes sctp) const
{
	return sctp_frame(s_mac, kRawMac, kRawIp, kServerIp, std::move(sctp));
}

bool
AttackBed::raw_handshake(bool echo, uint32_t a_rwnd)
{
	// An ARP request from the raw peer: the server learns where it is.
	Bytes arp(60, 0);
	memset(arp.data(), 0xff, 6);
	memcpy(arp.data() + 6, kRawMac, 6);
	const uint8_t hdr[] = { 0x08, 0x06, 0, 1, 0x08, 0, 6, 4, 0, 1 };
	memcpy(arp.data() + 12, hdr, sizeof(hdr));
	memcpy(arp.data() + 22, kRawMac, 6);
	memcpy(arp.data() + 28, kRawIp, 4);
	memcpy(arp.data() + 38, kServerIp, 4);
	inject(arp);

	Bytes init = sctp_common(kRawPort, kServerPort, 0);
	Bytes v(16, 0);
	put32(v.data(), raw_tag);
	put32(v.data() + 4, a_rwnd);
	v[8] = 0;
	v[9] = 10; // outbound streams
	v[10] = 0;
	v[11] = 10;		 // inbound streams
	put32(v.data() + 12, 1); // initial TSN
	sctp_chunk(init, 1, 0, v);
	raw_cookie.clear();
	inject(raw_frame(init));
	for (int i = 0; i < 1000000 && raw_cookie.empty(); i++)
		step();
	if (raw_cookie.empty() || !echo)
		return !raw_cookie.empty();
	Bytes ce = sctp_common(kRawPort, kServerPort, raw_peer_tag);
	sctp_chunk(ce, 10, 0, raw_cookie);
	uint64_t acks = raw_cookie_acks;
	size_t before = sa.size();
	inject(raw_frame(ce));
	for (int i = 0; i < 1000000 && (raw_cookie_acks == acks || sa.size() == before); i++)
		step();
	return raw_cookie_acks > acks && sa.size() > before;
}

void
AttackBed::raw_receive()
{
	while (!to_attacker.empty()) {
		Bytes f = std::move(to_attacker.front());
		to_attacker.pop_front();
		size_t ihl;
		const uint8_t *ip = ip4_of(f.data(), f.size(), &ihl);
		if (ip == nullptr || ip[9] != 132 || memcmp(ip + 16, kRawIp, 4) != 0)
			continue;
		const uint8_t *p = ip + ihl;
		size_t len = f.size() - 14 - ihl;
		bool data = false;
		for (size_t o = 12; o + 4 <= len;) {
			uint8_t type = p[o];
			size_t cl = (size_t)(p[o + 2] << 8 | p[o + 3]);
			if (cl < 4 || o + cl > len)
				break;
			const uint8_t *c = p + o;
			if (type == 2 && cl >= 20) { // INIT ACK
				raw_peer_tag = get32(c + 4);
				raw_peer_tsn = get32(c + 16);
				for (size_t q = 20; q + 4 <= cl;) {
					size_t pl = (size_t)(c[q + 2] << 8 | c[q + 3]);
					if (pl < 4 || q + pl > cl)
						break;
					if ((c[q] << 8 | c[q + 1]) == 7)
						raw_cookie.assign(c + q + 4, c + q + pl);
					q += (pl + 3) & ~(size_t)3;
				}
			} else if (type == 0 && cl >= 16) {
				uint32_t tsn = get32(c + 4);
				if (!raw_seen_data || tsn_gt(tsn, raw_hi_tsn))
					raw_hi_tsn = tsn;
				raw_seen_data = data = true;
			} else if (type == 11) {
				raw_cookie_acks++;
			} else if (type == 6) {
				raw_abort_seen++;
			} else if (type == 9) {
				raw_stale_errors++;
			}
			o += (cl + 3) & ~(size_t)3;
		}
		if (data && raw_auto_sack) {
			// Nothing taken (the window never read): the cumulative TSN
			// ack stays before the server's first TSN.
			Bytes sack = sctp_common(kRawPort, kServerPort, raw_peer_tag);
			Bytes v(12, 0);
			put32(v.data(), raw_peer_tsn - 1);
			put32(v.data() + 4, raw_rwnd);
			sctp_chunk(sack, 3, 0, v);
			if (inject(raw_frame(sack)))
				raw_sacks++;
		}
	}
}

// ---- the attacks ----

namespace {

// A spoofed INIT from on-link address i of 62,500 (10.0.1.1 .. 10.0.250.250),
// each with its own MAC and port.
Bytes
spoofed_init(const AttackBed &b, unsigned i)
{
	i %= 62500;
	uint16_t sport = (uint16_t)(20000 + i % 40000);
	Bytes init = sctp_common(sport, kServerPort, 0);
	Bytes v(16, 0);
	put32(v.data(), 0x1000u + i);
	put32(v.data() + 4, 65536);
	v[9] = 10;
	v[11] = 10;
	put32(v.data() + 12, 1);
	sctp_chunk(init, 1, 0, v);
	const uint8_t mac[6] = { 0x02, 0x5a, 0, 0, (uint8_t)(i >> 8), (uint8_t)i };
	const uint8_t src[4] = { 10, 0, (uint8_t)(1 + i / 250), (uint8_t)(1 + i % 250) };
	return sctp_frame(b.s_mac, mac, src, kServerIp, init);
}

Bytes
cookie_echo(const AttackBed &b, const Bytes &cookie)
{
	Bytes ce = sctp_common(kRawPort, kServerPort, b.raw_peer_tag);
	sctp_chunk(ce, 10, 0, cookie);
	return b.raw_frame(ce);
}

// A chunk with no value or a 4-byte one, from the client's address and port.
Bytes
blind(const AttackBed &b, uint32_t vtag, uint8_t type, uint8_t flags, const Bytes &value)
{
	Bytes p = sctp_common(b.c_port, kServerPort, vtag);
	sctp_chunk(p, type, flags, value);
	return from_client(b, p);
}

// Waits `ms` milliseconds of the instances' clock while both are polled.
void
let_time_pass(AttackBed &b, unsigned ms)
{
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
	while (std::chrono::steady_clock::now() < end)
		b.step();
}

Bytes
forged_sack(AttackBed &b, unsigned)
{
	// Every gap block acknowledges one TSN the client has sent (offsets
	// 1, 3, 5, ... from the server's latest cumulative TSN ack), as many
	// as are outstanding; the rest of a 9,000-byte packet is duplicate
	// TSNs the server has had.
	uint32_t cum = b.s_sack_cum;
	uint32_t room = b.c_hi_tsn - cum;
	uint32_t n_gaps = std::min<uint32_t>(room / 2, 2000);
	uint32_t n_dups = (8900 - 16 - 4 * n_gaps) / 4;
	Bytes v(12 + 4 * (n_gaps + n_dups), 0);
	put32(v.data(), cum);
	put32(v.data() + 4, 1u << 20);
	v[8] = (uint8_t)(n_gaps >> 8);
	v[9] = (uint8_t)n_gaps;
	v[10] = (uint8_t)(n_dups >> 8);
	v[11] = (uint8_t)n_dups;
	for (uint32_t k = 0; k < n_gaps; k++) {
		uint16_t off = (uint16_t)(2 * k + 1);
		uint8_t *g = v.data() + 12 + 4 * k;
		g[0] = g[2] = (uint8_t)(off >> 8);
		g[1] = g[3] = (uint8_t)off;
	}
	for (uint32_t k = 0; k < n_dups; k++)
		put32(v.data() + 12 + 4 * (n_gaps + k), cum - k);
	b.forged_gap_blocks += n_gaps;
	b.forged_dup_tsns += n_dups;
	Bytes p = sctp_common(kServerPort, b.c_port, b.tag_c);
	sctp_chunk(p, 3, 0, v);
	return sctp_frame(b.c_mac, kEvilMac, kServerIp, kClientIp, p);
}

std::vector<Attack>
make_attacks()
{
	std::vector<Attack> v;
	// Every INIT answered (--busy-init-rate 0): what each costs in full.
	v.push_back({ "init_flood",
		      "INITs from many spoofed on-link sources",
		      false,
		      {},
		      { { "busy-init-rate", "0" } },
		      nullptr,
		      spoofed_init });
	// The default: while the queue is backed up, INITs beyond 10,000 a
	// second are dropped unread (dp_rx.c).
	v.push_back({ "init_flood_shed",
		      "the same INITs against the default --busy-init-rate",
		      false,
		      {},
		      {},
		      nullptr,
		      spoofed_init });
	// The NIC steers INITs to a queue of their own (--init-queue), read at
	// --busy-init-rate while the association talks: the rest wait there,
	// and what the queue cannot hold the NIC drops.
	v.push_back({ "init_flood_queue",
		      "the same INITs, steered to the server's queue for handshakes",
		      false,
		      {},
		      { { "init-queue", "external" } },
		      nullptr,
		      spoofed_init });
	v.push_back({ "cookie_bad_mac",
		      "COOKIE ECHO with a genuine cookie whose MAC is altered",
		      false,
		      {},
		      {},
		      [](AttackBed &b) { return b.raw_handshake(false); },
		      [](AttackBed &b, unsigned i) {
			      Bytes c = b.raw_cookie;
			      c[c.size() - 1 - i % 32] ^= (uint8_t)(1 + i % 255);
			      return cookie_echo(b, c);
		      } });
	v.push_back({ "cookie_stale",
		      "COOKIE ECHO with a genuine cookie past its life",
		      false,
		      {},
		      { { "cookie-life", "50" } },
		      [](AttackBed &b) {
			      if (!b.raw_handshake(false))
				      return false;
			      let_time_pass(b, 120);
			      return true;
		      },
		      [](AttackBed &b, unsigned) { return cookie_echo(b, b.raw_cookie); } });
	v.push_back({ "cookie_replay",
		      "the legitimate client's COOKIE ECHO sent again once the association is up",
		      false,
		      {},
		      {},
		      [](AttackBed &b) { return !b.client_cookie_echo.empty(); },
		      [](AttackBed &b, unsigned) { return b.client_cookie_echo; } });
	v.push_back({ "blind_abort",
		      "ABORT from the client's address with a wrong tag",
		      false,
		      {},
		      {},
		      nullptr,
		      [](AttackBed &b, unsigned i) {
			      return blind(b, wrong_tag(b.tag_s, i), 6, 0, {});
		      } });
	v.push_back({ "blind_abort_reflected",
		      "ABORT with the T bit carrying the server's own tag (RFC 9260 §8.5.1 B)",
		      false,
		      {},
		      {},
		      nullptr,
		      [](AttackBed &b, unsigned) { return blind(b, b.tag_s, 6, 1, {}); } });
	v.push_back({ "blind_shutdown",
		      "SHUTDOWN from the client's address with a wrong tag",
		      false,
		      {},
		      {},
		      nullptr,
		      [](AttackBed &b, unsigned i) {
			      return blind(b, wrong_tag(b.tag_s, i), 7, 0, { 0, 0, 0, 0 });
		      } });
	v.push_back({ "blind_shutdown_complete_reflected",
		      "SHUTDOWN COMPLETE with the T bit carrying the server's own tag (§8.5.1 C)",
		      false,
		      {},
		      {},
		      nullptr,
		      [](AttackBed &b, unsigned) { return blind(b, b.tag_s, 14, 1, {}); } });
	v.push_back({ "blind_sack",
		      "SACK from the client's address with a wrong tag",
		      false,
		      {},
		      {},
		      nullptr,
		      [](AttackBed &b, unsigned i) {
			      Bytes sack(12, 0);
			      put32(sack.data(), 0x10000000u * (i % 16));
			      return blind(b, wrong_tag(b.tag_s, i), 3, 0, sack);
		      } });
	v.push_back({ "blind_data",
		      "DATA from the client's address with a wrong tag",
		      false,
		      {},
		      {},
		      nullptr,
		      [](AttackBed &b, unsigned i) {
			      Bytes d(12 + 64, 0x61);
			      put32(d.data(), 0x20000000u + i);
			      d[4] = d[5] = d[6] = d[7] = d[8] = d[9] = d[10] = d[11] = 0;
			      return blind(b, wrong_tag(b.tag_s, i), 0, 3, d);
		      } });
	v.push_back(
		{ "frag_never_complete",
		  "an association of the attacker's opens a message (B, no E) and sends fragments "
		  "behind a hole that never fills",
		  false,
		  {},
		  { { "rcvbuf", "65536" } },
		  [](AttackBed &b) { return b.raw_handshake(true); },
		  [](AttackBed &b, unsigned i) {
			  Bytes d(12 + 1000, (uint8_t)i);
			  // TSN 1 opens the message (B); TSN 2, the next fragment, is
			  // never sent, so nothing after it can be delivered.
			  put32(d.data(), i == 0 ? 1 : 2 + i);
			  put32(d.data() + 4, 0); // stream 0, SSN 0
			  put32(d.data() + 8, 0x41);
			  Bytes p = sctp_common(kRawPort, kServerPort, b.raw_peer_tag);
			  sctp_chunk(p, 0, i == 0 ? 2 : 0, d); // B on the first, never E
			  return b.raw_frame(p);
		  } });
	v.push_back(
		{ "zero_window",
		  "an association of the attacker's never opens its window to the server's data",
		  false,
		  {},
		  { { "sndbuf", "65536" } },
		  [](AttackBed &b) {
			  b.raw_rwnd = 0;
			  b.raw_auto_sack = true;
			  if (!b.raw_handshake(true, 1500) || b.sa.size() < 2)
				  return false;
			  // The server's application writes to it until told to wait.
			  Bytes body(1000, 0x5a);
			  dpsctp_sndinfo si = { 0, 7, 0, DPSCTP_PR_NONE, 0, 0 };
			  for (int i = 0; i < 100000; i++) {
				  int rc = dpsctp_send_bytes(b.sa[1].a, &si, body.data(),
							     body.size());
				  if (rc != 0) {
					  b.hostile_send_rc = rc;
					  break;
				  }
				  b.hostile_sent_bytes += body.size();
			  }
			  return true;
		  },
		  [](AttackBed &b, unsigned) {
			  Bytes v(12, 0);
			  put32(v.data(), b.raw_peer_tsn - 1);
			  Bytes p = sctp_common(kRawPort, kServerPort, b.raw_peer_tag);
			  sctp_chunk(p, 3, 0, v); // a_rwnd 0
			  return b.raw_frame(p);
		  } });
	v.push_back({ "sack_gaps",
		      "SACKs to the client with its own tag, every outstanding TSN gap-acked "
		      "(at most 2,000 blocks) and 2,000+ duplicate TSNs in 9,000 bytes",
		      true,
		      { { "mtu", "9000" }, { "sndbuf", "4m" } },
		      { { "mtu", "9000" }, { "rcvbuf", "4m" } },
		      [](AttackBed &b) {
			      for (int i = 0; i < 2000000 && !(b.have_sack && b.c_hi_tsn != 0);
				   i++) {
				      b.pump(b.sent + 64);
				      b.step();
			      }
			      return b.have_sack;
		      },
		      forged_sack });
	v.push_back({ "icmp_frag_needed_bad_tag",
		      "ICMP Fragmentation Needed (MTU 1200) quoting a wrong verification tag",
		      false,
		      {},
		      {},
		      nullptr,
		      [](AttackBed &b, unsigned i) {
			      return icmp_to_server(b, 4, 1200, wrong_tag(b.tag_c, i), false, 0);
		      } });
	v.push_back({ "icmp_frag_needed_bad_tsn",
		      "ICMP Fragmentation Needed (MTU 1200) with the right tag quoting a TSN not "
		      "outstanding",
		      false,
		      {},
		      {},
		      nullptr,
		      [](AttackBed &b, unsigned i) {
			      return icmp_to_server(b, 4, 1200, b.tag_c, true, 0x40000000u + i);
		      } });
	v.push_back({ "icmp_proto_unreach_bad_tag",
		      "ICMP Protocol Unreachable (taken as an ABORT) quoting a wrong tag",
		      false,
		      {},
		      { { "icmp-unreach", "abort" } },
		      nullptr,
		      [](AttackBed &b, unsigned i) {
			      return icmp_to_server(b, 2, 0, wrong_tag(b.tag_c, i), false, 0);
		      } });
	return v;
}

} // namespace

const std::vector<Attack> &
attacks()
{
	static const std::vector<Attack> v = make_attacks();
	return v;
}

const Attack *
find_attack(const std::string &name)
{
	for (const Attack &a : attacks())
		if (name == a.name)
			return &a;
	return nullptr;
}

} // namespace dp_attack
