// SPDX-License-Identifier: GPL-3.0-or-later
// Writes a picture (anything that paints itself through a QPainter: a tensor view, the window)
// as PNG, SVG or PDF, chosen by the file's suffix. SVG and PDF are vector: the painter's text
// stays text and its rectangles stay rectangles. Every file is rendered into memory and then
// written atomically (writeFileAtomically), so a failed export keeps the old file, leaves no
// half-written one behind, and says why ("No space left on device").
#pragma once

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>

#include <functional>
#include <optional>

class QPainter;

namespace ss::ui {

/// What to draw: its size in device-independent pixels, the font resolution it was laid out
/// for (the screen's logical DPI, so text keeps the size its cells were measured with), and the
/// painting itself, from (0, 0).
struct Picture
{
    QSize size;
    int dpi = 96;
    std::function<void(QPainter&)> paint;
    QString title; ///< the SVG's and PDF's title
};

class PictureWriter
{
public:
    enum class Format { Png, Svg, Pdf };
    /// A PNG is refused past this many pixels (after scaling): 16384 x 16384 would need a
    /// gigabyte of memory before it was compressed.
    static constexpr qint64 kMaxPngPixels = qint64(1) << 26;
    static constexpr double kMaxScale = 8.0;

    /// The format a file name asks for (.png, .svg, .pdf, any case), or std::nullopt.
    static std::optional<Format> formatOf(const QString& path);
    /// "PNG, SVG or PDF": for error messages.
    static QString formatList();

    /// Writes `picture` to `path` in the format its suffix names; `scale` (1 to kMaxScale)
    /// multiplies a PNG's pixels. False, with a message naming the file, on failure (and no
    /// file is left).
    static bool write(const Picture& picture, const QString& path, double scale, QString* error);
    /// Writes `bytes` (an encoded image) to `path` atomically; false, with a message naming the
    /// file and the reason, on failure (the old file is kept). The one way images reach a disk.
    static bool writeBytes(const QString& path, const QByteArray& bytes, QString* error);
    /// Writes `image` as a PNG (screenshots), the same way.
    static bool writePng(const QImage& image, const QString& path, QString* error);
    /// The picture as an opaque image of size * scale pixels (also the animation's frames).
    static QImage render(const Picture& picture, double scale = 1.0);
};

} // namespace ss::ui
