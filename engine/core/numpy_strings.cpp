// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/numpy_strings.h"

#include <algorithm>

namespace ss {

std::int64_t numpyStringLength(const Tensor& t)
{
    // A file's length, 0 too ('|S0'); a new array's is at least 1, as NumPy's.
    std::int64_t longest = t.itemLength() >= 0 ? t.itemLength() : 1;
    for (std::int64_t i = 0; i < t.size(); ++i) {
        const std::string& s = t.data<std::string>()[i];
        // Text counts code points: every byte that is not a UTF-8 continuation byte.
        const auto length = t.holdsBytes()
                                ? std::int64_t(s.size())
                                : std::int64_t(std::count_if(s.begin(), s.end(), [](char c) {
                                      return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
                                  }));
        longest = std::max(longest, length);
    }
    return longest;
}

std::string numpyStringDescr(const Tensor& t)
{
    return (t.holdsBytes() ? "|S" : "<U") + std::to_string(numpyStringLength(t));
}

} // namespace ss
