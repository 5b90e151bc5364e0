// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/readorderanimation.h"

#include "protocol/atomic_file.h"
#include "ui/views/apngwriter.h"
#include "ui/views/picturewriter.h"
#include "ui/views/tensorview.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPainter>
#include <QRegularExpression>

namespace ss::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ReadOrderAnimation", text);
}

Picture frameOf(const TensorView& view, std::int64_t revealUpTo)
{
    return Picture{view.pictureSize(), view.logicalDpiY(),
                   [&view, revealUpTo](QPainter& p) { view.paintPicture(p, revealUpTo); },
                   view.title()};
}

bool isDirectoryPath(const QString& path)
{
    return path.endsWith(u'/') || QFileInfo(path).isDir();
}

} // namespace

ReadOrderAnimation::ReadOrderAnimation(const TensorView& view, int stepMs)
    : m_view(view), m_stepMs(stepMs)
{
    const std::vector<std::int64_t> orders = view.pictureReadPositions();
    const auto cells = std::int64_t(orders.size());
    m_cellsPerStep = std::max<std::int64_t>(1, (cells + kMaxSteps - 1) / kMaxSteps);
    m_revealUpTo.push_back(-1);
    for (std::int64_t i = m_cellsPerStep - 1; i < cells + m_cellsPerStep - 1; i += m_cellsPerStep)
        m_revealUpTo.push_back(orders[std::size_t(std::min(i, cells - 1))]);
}

int ReadOrderAnimation::delayMs(int frame) const
{
    return frame + 1 == frameCount() ? std::max(kHoldMs, m_stepMs) : m_stepMs;
}

bool ReadOrderAnimation::isAnimationPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("png") || suffix == QLatin1String("apng") ||
           isDirectoryPath(path);
}

bool ReadOrderAnimation::check(QString* error) const
{
    if (m_stepMs < kMinStepMs || m_stepMs > kMaxStepMs) {
        *error = tr("the speed must be %1 to %2 ms per step, not %3")
                     .arg(kMinStepMs)
                     .arg(kMaxStepMs)
                     .arg(m_stepMs);
        return false;
    }
    if (m_view.isHeatMap()) {
        *error = tr("%1 is drawn as a heat map; the animation lights cells, so it needs a view "
                    "drawn as cells (pin outer dimensions or choose smaller faces)")
                     .arg(m_view.title());
        return false;
    }
    if (frameCount() < 2) {
        *error =
            tr("%1 shows no element the op reads: there is nothing to animate").arg(m_view.title());
        return false;
    }
    if (m_view.pictureSize().isEmpty()) {
        *error = tr("%1 has nothing to draw").arg(m_view.title());
        return false;
    }
    return true;
}

bool ReadOrderAnimation::write(const QString& path, QString* error) const
{
    if (!isAnimationPath(path)) {
        *error = tr("cannot write %1: an animation is an animated PNG (.png, .apng) or a "
                    "directory for numbered frames (a path ending in /)")
                     .arg(path);
        return false;
    }
    if (!check(error)) return false;
    return isDirectoryPath(path) ? writeFrames(path, error) : writeApng(path, error);
}

bool ReadOrderAnimation::writeApng(const QString& path, QString* error) const
{
    if (const std::string why = checkWriteTarget(path); !why.empty()) {
        *error = tr("cannot write %1: %2").arg(path, QString::fromStdString(why));
        return false;
    }
    // Encoded into memory, then written by the one atomic writer (which keeps the old file and
    // says why on a full disk).
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    ApngWriter apng(&buffer, m_view.pictureSize(), frameCount());
    for (int k = 0; k < frameCount(); ++k)
        if (!apng.addFrame(PictureWriter::render(frameOf(m_view, revealUpTo(k))), delayMs(k)))
            break;
    if (!apng.finish()) {
        *error = tr("cannot write %1: %2").arg(path, apng.error());
        return false;
    }
    return PictureWriter::writeBytes(path, bytes, error);
}

bool ReadOrderAnimation::writeFrames(const QString& dirPath, QString* error) const
{
    QDir dir(dirPath);
    if (!dir.exists() && !QDir().mkpath(dirPath)) {
        *error = tr("cannot create the directory %1").arg(dirPath);
        return false;
    }
    QStringList written;
    const auto undo = [&] {
        for (const QString& f : written)
            QFile::remove(f);
    };
    for (int k = 0; k < frameCount(); ++k) {
        const QString file =
            dir.filePath(QStringLiteral("frame-%1.png").arg(k + 1, 4, 10, QLatin1Char('0')));
        if (!PictureWriter::writePng(PictureWriter::render(frameOf(m_view, revealUpTo(k))), file,
                                     error)) {
            undo();
            return false;
        }
        written << file;
    }
    // An older, longer sequence's tail would play on after this one.
    static const QRegularExpression frameName(QStringLiteral("^frame-(\\d+)\\.png$"));
    for (const QString& name : dir.entryList({QStringLiteral("frame-*.png")}, QDir::Files)) {
        const auto match = frameName.match(name);
        if (match.hasMatch() && match.captured(1).toInt() > frameCount()) dir.remove(name);
    }
    return true;
}

} // namespace ss::ui
