// SPDX-License-Identifier: GPL-3.0-or-later
// Differential tests ask NumPy (Debian's /usr/bin/python3 with python3-numpy) for the reference
// answer: one python process per batch of cases, text in and text out.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <stdexcept>

namespace ss::testing {

/// The interpreter with NumPy. The pyenv python3 on PATH may lack NumPy, so use Debian's.
inline QString numpyPython()
{
    return QStringLiteral("/usr/bin/python3");
}

/// The source tree (set by ctest), for scripts kept beside the tests.
inline QString sourceDir()
{
    const QByteArray dir = qgetenv("SLICESCOPE_SOURCE_DIR");
    return dir.isEmpty() ? QStringLiteral(".") : QString::fromLocal8Bit(dir);
}

/// Runs `script` (python source) with `input` on stdin and returns stdout. Throws with stderr if
/// python fails or NumPy is missing.
inline QByteArray runNumpy(const QString& script, const QByteArray& input, int timeoutMs = 120000)
{
    QProcess p;
    p.start(numpyPython(), {QStringLiteral("-c"), script});
    if (!p.waitForStarted(10000))
        throw std::runtime_error("cannot start " + numpyPython().toStdString());
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        throw std::runtime_error("python timed out");
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        throw std::runtime_error("python failed: " + p.readAllStandardError().toStdString());
    return p.readAllStandardOutput();
}

} // namespace ss::testing
