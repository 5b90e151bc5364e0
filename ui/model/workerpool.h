// SPDX-License-Identifier: GPL-3.0-or-later
// The one worker pool of the workbench. Every evaluation, heat-map sampling and statistics job of
// every window and view runs on it, so the thread count does not grow with the number of views
// (a 1,000-output unstack used to start 2,000 threads).
#pragma once

#include "core/executor.h"

#include <memory>

namespace ss::ui {

class WorkerPool
{
public:
    /// The pool, made on first use and kept while anyone holds it: the last holder to let go
    /// joins its threads. Never hold it in a job (the pool would join itself). Its threads run
    /// below the thread that made it (nice +5, or one real-time priority lower), so that the
    /// GUI thread gets a core as soon as it wakes. Fewer threads when the system refuses some;
    /// with none, jobs run on the thread that submits them (never an exception).
    static std::shared_ptr<Executor> shared();
    /// How many threads the pool has (one per hardware thread, at least two, so that a long
    /// evaluation leaves a thread for drawing).
    static int threadCount();
};

} // namespace ss::ui
