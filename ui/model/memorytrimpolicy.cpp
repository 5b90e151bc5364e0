// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/memorytrimpolicy.h"

#include <algorithm>

namespace ss::ui {

void MemoryTrimPolicy::evaluated(std::int64_t bytes)
{
    m_latest = std::max<std::int64_t>(0, bytes);
    m_biggest = std::max(m_biggest, m_latest);
}

bool MemoryTrimPolicy::trimAfterQuietSpell()
{
    // The next edit allocates about what the latest did while the latest is still shown: memory
    // kept beyond that is what went back. Worth it when it is at least as much as the latest
    // evaluation itself (the next edit's faults then cost less than what is returned) and more
    // than a few pages.
    const std::int64_t surplus = m_biggest - m_latest;
    if (surplus < kMinSurplusBytes || surplus < m_latest) return false;
    m_biggest = m_latest;
    return true;
}

} // namespace ss::ui
