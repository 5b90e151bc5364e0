// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI benchmarks' measure of responsiveness: the longest gap between ticks of a 1 ms timer
// on the GUI thread.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <algorithm>
#include <sys/resource.h>
#include <time.h>
#include <vector>

namespace ss::bench {

/// The calling thread's usage so far (RUSAGE_THREAD): its page faults, its user and system time
/// (the kernel samples which of the two a tick fell in), its involuntary context switches.
inline rusage threadUsage()
{
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return usage;
}

inline double msOf(const timeval& t)
{
    return double(t.tv_sec) * 1e3 + double(t.tv_usec) / 1e3;
}

/// CPU time the calling thread has used, in ns.
inline qint64 threadCpuNs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/// The longest gap between ticks of a 1 ms GUI-thread timer, in wall time (what a user would
/// feel, including time the OS gave to other processes) and in the GUI thread's own CPU time
/// (the work this process did on it, which is what the GUI controls).
class StallMeter
{
public:
    /// A gap of at least kLongGapMs (wall or CPU): when it ended (CLOCK_MONOTONIC, ns, the
    /// clock of `perf record -k CLOCK_MONOTONIC` and of the stage marks), how long it was and
    /// the GUI thread's page faults in it.
    struct Gap
    {
        qint64 endNs;
        double wallMs, cpuMs;
        long faults;
        double userMs, systemMs; ///< of cpuMs, as the kernel's ticks sampled it
        long preempted;          ///< involuntary context switches
    };
    static constexpr double kLongGapMs = 16;

    StallMeter()
    {
        m_timer.setInterval(1);
        m_timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_timer, &QTimer::timeout, [this] { tick(); });
    }
    void start()
    {
        m_clock.start();
        m_lastNs = 0;
        m_lastCpuNs = threadCpuNs();
        m_wallNs = m_cpuNs = 0;
        m_lastUsage = threadUsage();
        m_gaps.clear();
        m_timer.start();
    }
    void stop()
    {
        tick();
        m_timer.stop();
    }
    double wallMs() const { return double(m_wallNs) / 1e6; }
    double cpuMs() const { return double(m_cpuNs) / 1e6; }
    const std::vector<Gap>& longGaps() const { return m_gaps; }

private:
    void tick()
    {
        const qint64 now = m_clock.nsecsElapsed();
        const qint64 cpu = threadCpuNs();
        const rusage usage = threadUsage();
        m_wallNs = std::max(m_wallNs, now - m_lastNs);
        m_cpuNs = std::max(m_cpuNs, cpu - m_lastCpuNs);
        const double wallMs = double(now - m_lastNs) / 1e6, cpuMs = double(cpu - m_lastCpuNs) / 1e6;
        if (std::max(wallMs, cpuMs) >= kLongGapMs) {
            timespec ts{};
            clock_gettime(CLOCK_MONOTONIC, &ts);
            m_gaps.push_back({qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec, wallMs, cpuMs,
                              usage.ru_minflt - m_lastUsage.ru_minflt,
                              msOf(usage.ru_utime) - msOf(m_lastUsage.ru_utime),
                              msOf(usage.ru_stime) - msOf(m_lastUsage.ru_stime),
                              usage.ru_nivcsw - m_lastUsage.ru_nivcsw});
        }
        m_lastNs = now;
        m_lastCpuNs = cpu;
        m_lastUsage = usage;
    }

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastNs = 0;
    qint64 m_lastCpuNs = 0;
    qint64 m_wallNs = 0;
    qint64 m_cpuNs = 0;
    rusage m_lastUsage{};
    std::vector<Gap> m_gaps;
};

} // namespace ss::bench
