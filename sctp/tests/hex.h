// SPDX-License-Identifier: BSD-3-Clause
// Test helper: byte vectors written as hex strings ("0001 02ff", spaces and
// newlines ignored), and hex dumps for failure messages.
#ifndef SCTP_TESTS_HEX_H
#define SCTP_TESTS_HEX_H

#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace hex {

inline std::vector<uint8_t>
bytes(const std::string &s)
{
	std::vector<uint8_t> out;
	int hi = -1;
	for (char ch : s) {
		if (std::isspace(static_cast<unsigned char>(ch)))
			continue;
		int v;
		if (ch >= '0' && ch <= '9')
			v = ch - '0';
		else if (ch >= 'a' && ch <= 'f')
			v = ch - 'a' + 10;
		else if (ch >= 'A' && ch <= 'F')
			v = ch - 'A' + 10;
		else
			throw std::invalid_argument("bad hex digit in test vector");
		if (hi < 0) {
			hi = v;
		} else {
			out.push_back(static_cast<uint8_t>(hi << 4 | v));
			hi = -1;
		}
	}
	if (hi >= 0)
		throw std::invalid_argument("odd number of hex digits in test vector");
	return out;
}

inline std::string
dump(const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	std::string s;
	for (size_t i = 0; i < n; i++) {
		if (i && i % 4 == 0)
			s += ' ';
		s += digits[p[i] >> 4];
		s += digits[p[i] & 15];
	}
	return s;
}

inline std::string
dump(const std::vector<uint8_t> &v)
{
	return dump(v.data(), v.size());
}

} // namespace hex

#endif
