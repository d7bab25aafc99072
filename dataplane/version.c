/* SPDX-License-Identifier: BSD-3-Clause */
/* The exported entry points that exist before the data plane does. */
#include "dataplane/dpsctp.h"
#include "drivers/crc32c/crc32c.h"

#ifndef DPSCTP_VERSION
#error "DPSCTP_VERSION comes from meson (project version)"
#endif

const char *
dpsctp_version(void)
{
	return DPSCTP_VERSION;
}

uint32_t
dpsctp_crc32c(uint32_t crc, const void *buf, size_t len)
{
	return crc32c_update(crc, buf, len);
}

const char *
dpsctp_crc32c_engine(void)
{
	return crc32c_engine_name();
}
