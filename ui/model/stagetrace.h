// SPDX-License-Identifier: GPL-3.0-or-later
// Stage marks: when each stage of an edit happened (the evaluation on the worker, its delivery
// to the GUI thread, the views' background work, the replots), so that a benchmark can print
// where the time between an edit and its frame goes instead of guessing it. Off unless a
// benchmark turns it on; then a mark takes a lock and appends one entry.
#pragma once

#include <cstdint>
#include <vector>

namespace ss::ui::stagetrace {

/// One stage reached: its name (a string literal), when (steady clock, ns), and which object's
/// stage it was (0, or a view's address, so that two heat maps' stages can be told apart).
struct Mark
{
    const char* stage;
    std::int64_t ns;
    const void* who;
};

/// Turns the marks on or off (off by default: mark() then only reads one flag).
void enable(bool on);
bool isEnabled();
/// The steady clock the marks use, in ns.
std::int64_t nowNs();
/// Records that `stage` was reached now (if enabled).
void mark(const char* stage, const void* who = nullptr);
/// The marks since the last take(), in the order they were made.
std::vector<Mark> take();

} // namespace ss::ui::stagetrace
