// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/apngwriter.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QIODevice>
#include <QtEndian>

#include <array>

namespace ss::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ApngWriter", text);
}

constexpr char kSignature[] = "\x89PNG\r\n\x1a\n";
// fcTL's dispose_op and blend_op: leave the frame as it is; replace the region's pixels.
constexpr char kDisposeNone = 0;
constexpr char kBlendSource = 0;

void put32(QByteArray& out, std::uint32_t value)
{
    char bytes[4];
    qToBigEndian(value, bytes);
    out.append(bytes, 4);
}

void put16(QByteArray& out, std::uint16_t value)
{
    char bytes[2];
    qToBigEndian(value, bytes);
    out.append(bytes, 2);
}

/// The chunks of a PNG as QImage wrote it.
struct PngChunks
{
    QByteArray header; ///< IHDR's data
    QByteArray data;   ///< all IDAT data, concatenated (one zlib stream)
};

bool splitPng(const QByteArray& png, PngChunks* out)
{
    if (!png.startsWith(QByteArray(kSignature, 8))) return false;
    qsizetype pos = 8;
    while (pos + 12 <= png.size()) {
        const auto length = qFromBigEndian<std::uint32_t>(png.constData() + pos);
        const QByteArray type = png.mid(pos + 4, 4);
        if (qsizetype(length) > png.size() - pos - 12) return false;
        const QByteArray data = png.mid(pos + 8, qsizetype(length));
        if (type == "IHDR") out->header = data;
        if (type == "IDAT") out->data += data;
        if (type == "IEND") return out->header.size() == 13 && !out->data.isEmpty();
        pos += 12 + qsizetype(length);
    }
    return false;
}

/// The smallest rectangle outside which `a` and `b` (same size and format) are equal; null when
/// they are equal everywhere.
QRect changedRect(const QImage& a, const QImage& b)
{
    int top = -1, bottom = -1, left = a.width(), right = -1;
    for (int y = 0; y < a.height(); ++y) {
        const auto* ra = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const auto* rb = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        int x0 = 0;
        while (x0 < a.width() && ra[x0] == rb[x0])
            ++x0;
        if (x0 == a.width()) continue;
        int x1 = a.width() - 1;
        while (ra[x1] == rb[x1])
            --x1;
        if (top < 0) top = y;
        bottom = y;
        left = std::min(left, x0);
        right = std::max(right, x1);
    }
    return top < 0 ? QRect() : QRect(QPoint(left, top), QPoint(right, bottom));
}

} // namespace

std::uint32_t ApngWriter::crc32(const QByteArray& bytes)
{
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    std::uint32_t c = 0xffffffffu;
    for (const char byte : bytes)
        c = table[(c ^ std::uint8_t(byte)) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

ApngWriter::ApngWriter(QIODevice* device, QSize size, int frameCount, int loops)
    : m_device(device), m_size(size), m_frameCount(frameCount), m_loops(loops)
{
}

bool ApngWriter::failWith(const QString& message)
{
    if (m_error.isEmpty()) m_error = message;
    return false;
}

bool ApngWriter::writeChunk(const char type[4], const QByteArray& data)
{
    QByteArray chunk;
    put32(chunk, std::uint32_t(data.size()));
    QByteArray body(type, 4);
    body += data;
    chunk += body;
    put32(chunk, crc32(body));
    if (m_device->write(chunk) != chunk.size())
        return failWith(tr("write error: %1").arg(m_device->errorString()));
    return true;
}

bool ApngWriter::addFrame(const QImage& frame, int delayMs)
{
    if (!m_error.isEmpty()) return false;
    if (frame.size() != m_size)
        return failWith(tr("frame %1 is %2 x %3 pixels, not %4 x %5")
                            .arg(m_framesAdded)
                            .arg(frame.width())
                            .arg(frame.height())
                            .arg(m_size.width())
                            .arg(m_size.height()));
    if (m_framesAdded >= m_frameCount)
        return failWith(tr("more frames than the %1 announced").arg(m_frameCount));
    if (delayMs < 1 || delayMs > 65535)
        return failWith(tr("a frame's delay must be 1 to 65535 ms, not %1").arg(delayMs));
    // One pixel format for every frame, so that every frame's PNG has the first one's type.
    QImage image = frame.convertToFormat(QImage::Format_RGB32);
    image.setDevicePixelRatio(1.0);
    QRect region(QPoint(0, 0), m_size);
    if (m_framesAdded > 0) {
        region = changedRect(m_previous, image);
        // Nothing changed: one pixel, so that the frame (and its delay) still exists.
        if (region.isNull()) region = QRect(0, 0, 1, 1);
    }
    QByteArray png;
    {
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        if (!image.copy(region).save(&buffer, "PNG"))
            return failWith(tr("frame %1 could not be PNG-encoded").arg(m_framesAdded));
    }
    PngChunks chunks;
    if (!splitPng(png, &chunks))
        return failWith(tr("frame %1's PNG could not be read back").arg(m_framesAdded));
    // Bit depth, colour type, compression, filter and interlace (IHDR bytes 8 to 12) must agree.
    if (m_framesAdded == 0) {
        m_header = chunks.header;
        if (m_device->write(kSignature, 8) != 8)
            return failWith(tr("write error: %1").arg(m_device->errorString()));
        if (!writeChunk("IHDR", m_header)) return false;
        QByteArray actl;
        put32(actl, std::uint32_t(m_frameCount));
        put32(actl, std::uint32_t(m_loops));
        if (!writeChunk("acTL", actl)) return false;
    } else if (chunks.header.mid(8) != m_header.mid(8)) {
        return failWith(tr("frame %1 was encoded with another pixel type").arg(m_framesAdded));
    }
    QByteArray fctl;
    put32(fctl, m_sequence++);
    put32(fctl, std::uint32_t(region.width()));
    put32(fctl, std::uint32_t(region.height()));
    put32(fctl, std::uint32_t(region.x()));
    put32(fctl, std::uint32_t(region.y()));
    put16(fctl, std::uint16_t(delayMs));
    put16(fctl, 1000); // the delay's denominator: milliseconds
    fctl.append(kDisposeNone);
    fctl.append(kBlendSource);
    if (!writeChunk("fcTL", fctl)) return false;
    if (m_framesAdded == 0) {
        if (!writeChunk("IDAT", chunks.data)) return false;
    } else {
        QByteArray fdat;
        put32(fdat, m_sequence++);
        fdat += chunks.data;
        if (!writeChunk("fdAT", fdat)) return false;
    }
    m_previous = image;
    ++m_framesAdded;
    return true;
}

bool ApngWriter::finish()
{
    if (!m_error.isEmpty()) return false;
    if (m_framesAdded != m_frameCount)
        return failWith(
            tr("%1 frames were announced but %2 added").arg(m_frameCount).arg(m_framesAdded));
    return writeChunk("IEND", {});
}

} // namespace ss::ui
