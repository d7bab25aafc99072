/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SCTP wire format: the codes and sizes of RFC 9260 §3 and of the extensions
 * the stack recognises. Constants only; no code.
 *
 * Names are SCTP_CHUNK_*, SCTP_PARAM_*, SCTP_CAUSE_* so that they never clash
 * with usrsctp.h (SCTP_DATA, SCTP_INITIATION, ...) in programs that include
 * both.
 */
#ifndef SCTP_WIRE_H
#define SCTP_WIRE_H

#include <stdint.h>

/* RFC 9260 §3.1: source port, destination port, verification tag, checksum. */
#define SCTP_COMMON_HDR_LEN 12u
/* RFC 9260 §3.2: type, flags, length. */
#define SCTP_CHUNK_HDR_LEN 4u
/* RFC 9260 §3.2.1: type, length. */
#define SCTP_PARAM_HDR_LEN 4u
/* RFC 9260 §3.3.10: code, length. */
#define SCTP_CAUSE_HDR_LEN 4u
/* Chunks, parameters and causes are padded to a multiple of 4 bytes. */
#define SCTP_PAD4(len) (((len) + 3u) & ~3u)

/* IANA protocol number and RFC 6951 UDP encapsulation port. */
#define SCTP_IPPROTO	    132u
#define SCTP_UDP_ENCAP_PORT 9899u

/* Chunk types: RFC 9260 §3.2 and extensions. */
enum sctp_chunk_type {
	SCTP_CHUNK_DATA = 0,		   /* RFC 9260 §3.3.1 */
	SCTP_CHUNK_INIT = 1,		   /* RFC 9260 §3.3.2 */
	SCTP_CHUNK_INIT_ACK = 2,	   /* RFC 9260 §3.3.3 */
	SCTP_CHUNK_SACK = 3,		   /* RFC 9260 §3.3.4 */
	SCTP_CHUNK_HEARTBEAT = 4,	   /* RFC 9260 §3.3.5 */
	SCTP_CHUNK_HEARTBEAT_ACK = 5,	   /* RFC 9260 §3.3.6 */
	SCTP_CHUNK_ABORT = 6,		   /* RFC 9260 §3.3.7 */
	SCTP_CHUNK_SHUTDOWN = 7,	   /* RFC 9260 §3.3.8 */
	SCTP_CHUNK_SHUTDOWN_ACK = 8,	   /* RFC 9260 §3.3.9 */
	SCTP_CHUNK_ERROR = 9,		   /* RFC 9260 §3.3.10 */
	SCTP_CHUNK_COOKIE_ECHO = 10,	   /* RFC 9260 §3.3.11 */
	SCTP_CHUNK_COOKIE_ACK = 11,	   /* RFC 9260 §3.3.12 */
	SCTP_CHUNK_ECNE = 12,		   /* RFC 9260 Appendix A */
	SCTP_CHUNK_CWR = 13,		   /* RFC 9260 Appendix A */
	SCTP_CHUNK_SHUTDOWN_COMPLETE = 14, /* RFC 9260 §3.3.13 */
	SCTP_CHUNK_AUTH = 15,		   /* RFC 4895 §4.1 */
	SCTP_CHUNK_NR_SACK = 16,	   /* draft-tuexen-tsvwg-sctp-multipath */
	SCTP_CHUNK_I_DATA = 64,		   /* RFC 8260 §2.1 */
	SCTP_CHUNK_ASCONF_ACK = 128,	   /* RFC 5061 §4.1.2 */
	SCTP_CHUNK_PKTDROP = 129,	   /* RFC 4960 ext., draft-stewart-sctp-pktdrprep */
	SCTP_CHUNK_RECONFIG = 130,	   /* RFC 6525 §3.1 */
	SCTP_CHUNK_PAD = 132,		   /* RFC 4820 §3 */
	SCTP_CHUNK_FORWARD_TSN = 192,	   /* RFC 3758 §3.2 */
	SCTP_CHUNK_ASCONF = 193,	   /* RFC 5061 §4.1.1 */
	SCTP_CHUNK_I_FORWARD_TSN = 194,	   /* RFC 8260 §2.3.1 */
};

/*
 * RFC 9260 §3.2: the two high bits of an unrecognised chunk type say what the
 * receiver does. The same encoding is used for parameters (§3.2.1), where
 * "stop" means "stop processing this chunk's parameters".
 */
enum sctp_unknown_action {
	SCTP_UNKNOWN_STOP = 0,	      /* 00: discard the rest of the packet/chunk */
	SCTP_UNKNOWN_STOP_REPORT = 1, /* 01: same, and report it */
	SCTP_UNKNOWN_SKIP = 2,	      /* 10: skip it and continue */
	SCTP_UNKNOWN_SKIP_REPORT = 3, /* 11: skip, continue, and report it */
};
#define SCTP_UNKNOWN_ACTION_OF_CHUNK(type) ((enum sctp_unknown_action)((uint8_t)(type) >> 6))
#define SCTP_UNKNOWN_ACTION_OF_PARAM(type) ((enum sctp_unknown_action)((uint16_t)(type) >> 14))

/* DATA (RFC 9260 §3.3.1) and I-DATA (RFC 8260 §2.1) chunk flags. */
#define SCTP_DATA_FLAG_E 0x01u /* ending fragment */
#define SCTP_DATA_FLAG_B 0x02u /* beginning fragment */
#define SCTP_DATA_FLAG_U 0x04u /* unordered */
#define SCTP_DATA_FLAG_I 0x08u /* immediate SACK requested, RFC 7053 §3 */
/* ABORT (§3.3.7) and SHUTDOWN COMPLETE (§3.3.13): tag reflected. */
#define SCTP_FLAG_T 0x01u

/* Fixed part of each chunk value (after the 4-byte chunk header). */
#define SCTP_DATA_FIXED_LEN	     12u /* TSN, SID, SSN, PPID */
#define SCTP_I_DATA_FIXED_LEN	     16u /* TSN, SID, reserved, MID, PPID/FSN */
#define SCTP_INIT_FIXED_LEN	     16u /* tag, a_rwnd, OS, MIS, initial TSN */
#define SCTP_SACK_FIXED_LEN	     12u /* cum TSN, a_rwnd, #gap, #dup */
#define SCTP_SHUTDOWN_FIXED_LEN	     4u	 /* cum TSN */
#define SCTP_ECNE_FIXED_LEN	     4u	 /* lowest TSN */
#define SCTP_CWR_FIXED_LEN	     4u	 /* lowest TSN */
#define SCTP_FORWARD_TSN_FIXED_LEN   4u	 /* new cum TSN */
#define SCTP_I_FORWARD_TSN_FIXED_LEN 4u	 /* new cum TSN */
#define SCTP_ASCONF_FIXED_LEN	     4u	 /* serial number (+ address param) */
#define SCTP_ASCONF_ACK_FIXED_LEN    4u	 /* serial number */
#define SCTP_AUTH_FIXED_LEN	     4u	 /* shared key id, HMAC id */

/* Parameter types: RFC 9260 §3.3.2.1, §3.3.3.1 and extensions. */
enum sctp_param_type {
	SCTP_PARAM_HEARTBEAT_INFO = 1,		      /* RFC 9260 §3.3.5 */
	SCTP_PARAM_IPV4_ADDR = 5,		      /* RFC 9260 §3.3.2.1.1 */
	SCTP_PARAM_IPV6_ADDR = 6,		      /* RFC 9260 §3.3.2.1.2 */
	SCTP_PARAM_STATE_COOKIE = 7,		      /* RFC 9260 §3.3.3.1.1 */
	SCTP_PARAM_UNRECOGNIZED = 8,		      /* RFC 9260 §3.3.3.1.2 */
	SCTP_PARAM_COOKIE_PRESERVATIVE = 9,	      /* RFC 9260 §3.3.2.1.3 */
	SCTP_PARAM_HOST_NAME_ADDR = 11,		      /* RFC 9260 §3.3.2.1.4 (deprecated) */
	SCTP_PARAM_SUPPORTED_ADDR_TYPES = 12,	      /* RFC 9260 §3.3.2.1.5 */
	SCTP_PARAM_OUT_SSN_RESET_REQ = 13,	      /* RFC 6525 §4.1 */
	SCTP_PARAM_IN_SSN_RESET_REQ = 14,	      /* RFC 6525 §4.2 */
	SCTP_PARAM_SSN_TSN_RESET_REQ = 15,	      /* RFC 6525 §4.3 */
	SCTP_PARAM_RECONFIG_RESPONSE = 16,	      /* RFC 6525 §4.4 */
	SCTP_PARAM_ADD_OUT_STREAMS_REQ = 17,	      /* RFC 6525 §4.5 */
	SCTP_PARAM_ADD_IN_STREAMS_REQ = 18,	      /* RFC 6525 §4.6 */
	SCTP_PARAM_ECN_CAPABLE = 0x8000,	      /* RFC 9260 Appendix A */
	SCTP_PARAM_ZERO_CHECKSUM_ACCEPTABLE = 0x8001, /* RFC 9653 §4 */
	SCTP_PARAM_RANDOM = 0x8002,		      /* RFC 4895 §3.1 */
	SCTP_PARAM_CHUNK_LIST = 0x8003,		      /* RFC 4895 §3.2 */
	SCTP_PARAM_HMAC_ALGO = 0x8004,		      /* RFC 4895 §3.3 */
	SCTP_PARAM_PADDING = 0x8005,		      /* RFC 4820 §4 */
	SCTP_PARAM_SUPPORTED_EXTENSIONS = 0x8008,     /* RFC 5061 §4.2.7 */
	SCTP_PARAM_FORWARD_TSN_SUPPORTED = 0xC000,    /* RFC 3758 §3.1 */
	SCTP_PARAM_ADD_IP = 0xC001,		      /* RFC 5061 §4.2.1 */
	SCTP_PARAM_DEL_IP = 0xC002,		      /* RFC 5061 §4.2.2 */
	SCTP_PARAM_ERROR_CAUSE_IND = 0xC003,	      /* RFC 5061 §4.2.3 */
	SCTP_PARAM_SET_PRIMARY = 0xC004,	      /* RFC 5061 §4.2.4 */
	SCTP_PARAM_SUCCESS_IND = 0xC005,	      /* RFC 5061 §4.2.5 */
	SCTP_PARAM_ADAPTATION_LAYER_IND = 0xC006,     /* RFC 5061 §4.2.6 */
};

/* Error cause codes: RFC 9260 §3.3.10 and extensions. */
enum sctp_cause_code {
	SCTP_CAUSE_INVALID_STREAM = 1,		    /* §3.3.10.1 */
	SCTP_CAUSE_MISSING_MANDATORY_PARAM = 2,	    /* §3.3.10.2 */
	SCTP_CAUSE_STALE_COOKIE = 3,		    /* §3.3.10.3 */
	SCTP_CAUSE_OUT_OF_RESOURCE = 4,		    /* §3.3.10.4 */
	SCTP_CAUSE_UNRESOLVABLE_ADDR = 5,	    /* §3.3.10.5 */
	SCTP_CAUSE_UNRECOGNIZED_CHUNK = 6,	    /* §3.3.10.6 */
	SCTP_CAUSE_INVALID_MANDATORY_PARAM = 7,	    /* §3.3.10.7 */
	SCTP_CAUSE_UNRECOGNIZED_PARAMS = 8,	    /* §3.3.10.8 */
	SCTP_CAUSE_NO_USER_DATA = 9,		    /* §3.3.10.9 */
	SCTP_CAUSE_COOKIE_WHILE_SHUTTING_DOWN = 10, /* §3.3.10.10 */
	SCTP_CAUSE_RESTART_WITH_NEW_ADDRS = 11,	    /* §3.3.10.11 */
	SCTP_CAUSE_USER_INITIATED_ABORT = 12,	    /* §3.3.10.12 */
	SCTP_CAUSE_PROTOCOL_VIOLATION = 13,	    /* §3.3.10.13 */
	SCTP_CAUSE_DELETE_LAST_ADDR = 0x00A0,	    /* RFC 5061 §4.3.1 */
	SCTP_CAUSE_RESOURCE_SHORTAGE = 0x00A1,	    /* RFC 5061 §4.3.2 */
	SCTP_CAUSE_DELETE_SOURCE_ADDR = 0x00A2,	    /* RFC 5061 §4.3.3 */
	SCTP_CAUSE_ILLEGAL_ASCONF_ACK = 0x00A3,	    /* RFC 5061 §4.3.4 */
	SCTP_CAUSE_REQUEST_REFUSED = 0x00A4,	    /* RFC 5061 §4.3.5 */
	SCTP_CAUSE_UNSUPPORTED_HMAC_ID = 0x0105,    /* RFC 4895 §4.1 */
};

#endif /* SCTP_WIRE_H */
