// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI benchmarks' measure of responsiveness: the longest gap between ticks of a 1 ms timer
// on the GUI thread.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <algorithm>
#include <time.h>

namespace ss::bench {

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
        m_timer.start();
    }
    void stop()
    {
        tick();
        m_timer.stop();
    }
    double wallMs() const { return double(m_wallNs) / 1e6; }
    double cpuMs() const { return double(m_cpuNs) / 1e6; }

private:
    void tick()
    {
        const qint64 now = m_clock.nsecsElapsed();
        const qint64 cpu = threadCpuNs();
        m_wallNs = std::max(m_wallNs, now - m_lastNs);
        m_cpuNs = std::max(m_cpuNs, cpu - m_lastCpuNs);
        m_lastNs = now;
        m_lastCpuNs = cpu;
    }

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastNs = 0;
    qint64 m_lastCpuNs = 0;
    qint64 m_wallNs = 0;
    qint64 m_cpuNs = 0;
};

} // namespace ss::bench
