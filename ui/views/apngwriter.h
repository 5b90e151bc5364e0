// SPDX-License-Identifier: GPL-3.0-or-later
// An animated PNG (APNG) encoder. Qt 6.4 writes neither APNG nor GIF, so this is ours: PNG was
// chosen over GIF because it keeps every colour of the read-order ramp (GIF has 256) and takes
// delays in milliseconds (GIF's are hundredths). Every frame is PNG-encoded by QImage; its
// image data is then re-wrapped as the APNG spec asks
// (https://wiki.mozilla.org/APNG_Specification): signature, IHDR, acTL, then per frame an fcTL and
// its data (IDAT for the first frame, which is also the still image a viewer without APNG support
// shows; fdAT for the others), IEND. Frames after the first store only the rectangle that changed,
// so a cell lighting up costs a cell.
#pragma once

#include <QImage>
#include <QString>

#include <cstdint>

class QIODevice;

namespace ss::ui {

class ApngWriter
{
public:
    /// Writes to `device` (open for writing) an animation of `frameCount` frames of `size`
    /// pixels, played `loops` times (0: forever).
    ApngWriter(QIODevice* device, QSize size, int frameCount, int loops = 0);

    /// Adds the next frame (of the size given), shown for `delayMs` milliseconds (1 to 65535).
    /// False, with `error()` set, if it cannot be written; the writer is then done.
    bool addFrame(const QImage& frame, int delayMs);
    /// Ends the file; false if fewer or more frames than announced were added, or on a write
    /// error.
    bool finish();
    QString error() const { return m_error; }

    /// CRC-32 as PNG computes it over a chunk's type and data (ISO 3309, the zlib polynomial).
    static std::uint32_t crc32(const QByteArray& bytes);

private:
    bool writeChunk(const char type[4], const QByteArray& data);
    bool failWith(const QString& message);

    QIODevice* m_device;
    QSize m_size;
    int m_frameCount;
    int m_loops;
    int m_framesAdded = 0;
    std::uint32_t m_sequence = 0;
    QImage m_previous;
    QByteArray m_header; ///< the first frame's IHDR data: every frame must match its type
    QString m_error;
};

} // namespace ss::ui
