// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/op.h"
#include "core/op_registry.h"
#include "core/ops/ops.h"

#include <stdexcept>

namespace ss {

namespace {

// Groups registered by libraries above the core, and whether allOps() has listed them yet.
struct Registrations
{
    std::vector<OpGroup> groups;
    bool listed = false;
};

Registrations& registrations()
{
    static Registrations r;
    return r;
}

} // namespace

bool registerOps(OpGroup group)
{
    Registrations& r = registrations();
    if (r.listed)
        throw std::logic_error("registerOps: the ops were already listed; register a group from "
                               "a static initialiser");
    r.groups.push_back(group);
    return true;
}

const std::vector<OpDef>& allOps()
{
    static const std::vector<OpDef> ops = [] {
        Registrations& r = registrations();
        r.listed = true;
        std::vector<OpGroup> groups{stridedSliceOps, sliceOps, shapeOps, spaceOps, indexOps};
        groups.insert(groups.end(), r.groups.begin(), r.groups.end());
        std::vector<OpDef> all;
        for (OpGroup group : groups) {
            auto defs = group();
            all.insert(all.end(), std::make_move_iterator(defs.begin()),
                       std::make_move_iterator(defs.end()));
        }
        return all;
    }();
    return ops;
}

} // namespace ss
