// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How a library above the core adds ops to the registry (allOps and findOp, in op.h). The core
// cannot list such an op itself without depending on that library: the frameworks library's
// `compare` registers itself this way (core/frameworks/compare_op.cpp), so the core links
// without it and a program that links it has the op.

#include "core/op.h"

#include <vector>

namespace ss {

/// A group of op definitions, as each file under core/ops/ returns its own.
using OpGroup = std::vector<OpDef> (*)();

/// Adds `group`'s ops after the core's, in the order of registration. Call it from a static
/// initialiser: once allOps() has listed the ops it throws std::logic_error, because the list it
/// handed out cannot grow. Returns true, the initialiser's value.
bool registerOps(OpGroup group);

} // namespace ss
