// SPDX-License-Identifier: GPL-3.0-or-later
// The resident pages of the program's own code that only its start-up read.
#pragma once

#include "core/executor.h"

#include <cstdint>

namespace ss::ui {

/// The pages of the executable's and every loaded library's read-only segments (code and
/// constants) leave the process's resident memory. Start-up reads many that nothing reads again
/// (static initialisers, the first layout, ONNX's and protobuf's registries, ICU), and the kernel
/// maps 64 KiB around every page a fault brings in: at 10^7 elements the libraries were 39 of
/// the window's 163 MB. The pages stay in the page cache: those still in use come back at a
/// minor fault each, the others are no longer the process's. Segments that may be written (data,
/// relocated pointers) are left alone. Returns the bytes it asked the kernel to drop (the window's:
/// 165 calls to madvise, 3-10 ms under strace).
std::int64_t dropStartUpPages();

/// dropStartUpPages() on a worker of `pool`, once per process (later calls do nothing): a window
/// asks when it has settled.
void dropStartUpPagesOnce(Executor& pool);

} // namespace ss::ui
