// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/attr.h"

namespace ss {

Attr Attr::ints(const std::vector<std::int64_t>& values)
{
    List list;
    list.reserve(values.size());
    for (std::int64_t v : values)
        list.emplace_back(v);
    return list;
}

} // namespace ss
