// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/stagetrace.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <utility>

namespace ss::ui::stagetrace {

namespace {

std::atomic<bool> g_enabled{false};
std::mutex g_lock;
std::vector<Mark> g_marks;

} // namespace

void enable(bool on)
{
    g_enabled.store(on, std::memory_order_relaxed);
}

bool isEnabled()
{
    return g_enabled.load(std::memory_order_relaxed);
}

std::int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void mark(const char* stage, const void* who)
{
    if (!isEnabled()) return;
    const std::int64_t ns = nowNs();
    const std::lock_guard lock(g_lock);
    g_marks.push_back({stage, ns, who});
}

std::vector<Mark> take()
{
    const std::lock_guard lock(g_lock);
    return std::exchange(g_marks, {});
}

} // namespace ss::ui::stagetrace
