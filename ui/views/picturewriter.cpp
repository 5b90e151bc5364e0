// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/picturewriter.h"

#include "protocol/atomic_file.h"
#include "ui/views/palette.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <cmath>

namespace ss::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("PictureWriter", text);
}

/// The writer's error text ("No space left on device") names neither the file nor the step.
bool fail(QString* error, const QString& path, const QString& why)
{
    if (error) *error = tr("cannot write %1: %2").arg(path, why);
    return false;
}

} // namespace

std::optional<PictureWriter::Format> PictureWriter::formatOf(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) return Format::Png;
    if (suffix == QLatin1String("svg")) return Format::Svg;
    if (suffix == QLatin1String("pdf")) return Format::Pdf;
    return std::nullopt;
}

QString PictureWriter::formatList()
{
    return tr("PNG, SVG or PDF (.png, .svg, .pdf)");
}

QImage PictureWriter::render(const Picture& picture, double scale)
{
    const QSize pixels(int(std::ceil(picture.size.width() * scale)),
                       int(std::ceil(picture.size.height() * scale)));
    QImage image(pixels, QImage::Format_RGB32);
    image.fill(roleColor(ColorRole::PictureMatte));
    // The image's resolution is the screen's, so point-sized fonts keep their pixel size.
    const int dotsPerMeter = int(std::lround(picture.dpi / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    image.setDevicePixelRatio(scale);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::TextAntialiasing);
    picture.paint(painter);
    painter.end();
    return image;
}

bool PictureWriter::write(const Picture& picture, const QString& path, double scale, QString* error)
{
    const auto format = formatOf(path);
    if (!format)
        return fail(error, path, tr("the suffix names no image format; use %1").arg(formatList()));
    if (picture.size.isEmpty()) return fail(error, path, tr("there is nothing to draw"));
    if (!(scale >= 1.0 && scale <= kMaxScale))
        return fail(error, path, tr("the scale must be between 1 and %1").arg(kMaxScale));
    // Refused before the (possibly long) rendering: a device or FIFO is never written.
    if (const std::string why = checkWriteTarget(path); !why.empty())
        return fail(error, path, QString::fromStdString(why));
    // Rendered into memory first: the encoders ignore write errors, so the bytes go to the disk
    // through the one writer that checks every step and keeps the old file on failure.
    QByteArray bytes;
    QBuffer file(&bytes);
    file.open(QIODevice::WriteOnly);
    switch (*format) {
    case Format::Png: {
        const double pixels = double(picture.size.width()) * picture.size.height() * scale * scale;
        if (pixels > double(kMaxPngPixels))
            return fail(error, path,
                        tr("%1 x %2 pixels at scale %3 is too large for a PNG; use SVG or PDF")
                            .arg(picture.size.width())
                            .arg(picture.size.height())
                            .arg(scale));
        if (!render(picture, scale).save(&file, "PNG"))
            return fail(error, path, tr("the PNG could not be encoded"));
        break;
    }
    case Format::Svg: {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(picture.size);
        svg.setViewBox(QRect(QPoint(0, 0), picture.size));
        svg.setResolution(picture.dpi);
        svg.setTitle(picture.title);
        svg.setDescription(tr("Exported by SliceScope"));
        QPainter painter;
        if (!painter.begin(&svg)) return fail(error, path, tr("the SVG could not be started"));
        picture.paint(painter);
        painter.end();
        break;
    }
    case Format::Pdf: {
        QPdfWriter pdf(&file);
        pdf.setCreator(QStringLiteral("SliceScope"));
        pdf.setTitle(picture.title);
        pdf.setResolution(picture.dpi);
        // One page the size of the picture, no margins: a figure, not a document.
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setPageSize(QPageSize(QSizeF(picture.size) * 72.0 / picture.dpi, QPageSize::Point,
                                  QString(), QPageSize::ExactMatch));
        QPainter painter;
        if (!painter.begin(&pdf)) return fail(error, path, tr("the PDF could not be started"));
        picture.paint(painter);
        painter.end();
        break;
    }
    }
    file.close();
    return writeBytes(path, bytes, error);
}

bool PictureWriter::writeBytes(const QString& path, const QByteArray& bytes, QString* error)
{
    const std::string why =
        writeFileAtomically(path, std::string_view(bytes.constData(), std::size_t(bytes.size())));
    return why.empty() || fail(error, path, QString::fromStdString(why));
}

bool PictureWriter::writePng(const QImage& image, const QString& path, QString* error)
{
    if (const std::string why = checkWriteTarget(path); !why.empty())
        return fail(error, path, QString::fromStdString(why));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) return fail(error, path, tr("the PNG could not be encoded"));
    return writeBytes(path, bytes, error);
}

} // namespace ss::ui
