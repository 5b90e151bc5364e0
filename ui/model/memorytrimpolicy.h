// SPDX-License-Identifier: GPL-3.0-or-later
// When the workbench gives the memory it keeps for reuse back to the system.
#pragma once

#include <cstdint>

namespace ss::ui {

/// Every edit allocates and frees buffers the size of its evaluation, and the workbench keeps
/// freed memory for the next edit (keepFreedMemoryForReuse, the tensors' buffer pool), because
/// memory fresh from the kernel costs a page fault per 4 KB: at 10^7 elements an edit after the
/// memory went back took 162 ms instead of 50. So after a quiet spell, memory goes back only if
/// the next edit will not need it: when the evaluations have become much smaller than the
/// biggest one since memory last went back (a big tensor is gone). While the same big tensor is
/// on screen, its edits keep their memory however long the pause.
class MemoryTrimPolicy
{
public:
    /// Less than this much to give back is not worth the next edit's page faults.
    static constexpr std::int64_t kMinSurplusBytes = std::int64_t(64) << 20;

    /// An evaluation that allocated `bytes` (its outputs, sources and read orders) was delivered.
    void evaluated(std::int64_t bytes);
    /// Called after a quiet spell: whether to give the kept memory back now. If it says so, the
    /// policy takes it as done.
    bool trimAfterQuietSpell();

private:
    std::int64_t m_biggest = 0; ///< the biggest evaluation since memory last went back
    std::int64_t m_latest = 0;  ///< the latest evaluation: what the next edit will need again
};

} // namespace ss::ui
