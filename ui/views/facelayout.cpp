// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/facelayout.h"

#include <algorithm>

namespace ss::ui {

FaceLayout::FaceLayout(const Shape& shape, int rowDim, int colDim)
    : m_shape(shape), m_strides(rowMajorStrides(shape))
{
    const int r = rank();
    const auto valid = [r](int d) { return d >= 0 && d < r; };
    if (r >= 2 && valid(rowDim) && valid(colDim) && rowDim != colDim) {
        m_rowDim = rowDim;
        m_colDim = colDim;
    } else if (r >= 2) {
        m_rowDim = r - 2;
        m_colDim = r - 1;
    } else if (r == 1) {
        m_colDim = 0;
    }
    for (int d = 0; d < r; ++d)
        if (d != m_rowDim && d != m_colDim) m_outerDims.push_back(d);
    m_hasElements = std::none_of(shape.begin(), shape.end(), [](std::int64_t n) { return n == 0; });
}

std::int64_t FaceLayout::freeSize(std::size_t fromOuter) const
{
    std::int64_t n = 1;
    for (std::size_t k = fromOuter; k < m_outerDims.size(); ++k)
        n *= m_shape[m_outerDims[k]];
    return n;
}

void FaceLayout::pinFor(std::int64_t maxFaces, std::int64_t maxCells)
{
    std::size_t count = 0;
    if (!m_hasElements) {
        count = 0; // nothing to page through
    } else if (maxFaces <= 0) {
        count = m_outerDims.size();
    } else {
        while (count < m_outerDims.size() &&
               (freeSize(count) > maxFaces || freeSize(count) * faceCells() > maxCells))
            ++count;
    }
    m_pins.resize(count, 0);
    for (std::size_t k = 0; k < count; ++k)
        setPin(int(k), m_pins[k]);
}

void FaceLayout::setPin(int k, std::int64_t value)
{
    const std::int64_t size = m_shape[m_outerDims[std::size_t(k)]];
    m_pins[std::size_t(k)] =
        std::clamp<std::int64_t>(value, 0, std::max<std::int64_t>(0, size - 1));
}

bool FaceLayout::pinTo(std::int64_t flat)
{
    const auto coords = unravelIndex(flat, m_shape);
    bool changed = false;
    for (std::size_t k = 0; k < m_pins.size(); ++k) {
        const std::int64_t want = coords[std::size_t(m_outerDims[k])];
        changed = changed || m_pins[k] != want;
        m_pins[k] = want;
    }
    return changed;
}

std::int64_t FaceLayout::faceCount() const
{
    return m_hasElements ? freeSize(m_pins.size()) : 0;
}

std::int64_t FaceLayout::groupSize() const
{
    return m_pins.size() < m_outerDims.size() ? m_shape[m_outerDims.back()] : 1;
}

std::int64_t FaceLayout::faceBase(std::int64_t face) const
{
    std::int64_t base = 0;
    for (std::size_t k = 0; k < m_pins.size(); ++k)
        base += m_pins[k] * m_strides[std::size_t(m_outerDims[k])];
    for (std::size_t k = m_outerDims.size(); k-- > m_pins.size();) {
        const auto d = std::size_t(m_outerDims[k]);
        base += (face % m_shape[d]) * m_strides[d];
        face /= m_shape[d];
    }
    return base;
}

std::optional<FaceCell> FaceLayout::locate(std::int64_t flat) const
{
    if (!m_hasElements || flat < 0 || flat >= numElements(m_shape)) return std::nullopt;
    const auto coords = unravelIndex(flat, m_shape);
    FaceCell cell;
    for (std::size_t k = 0; k < m_outerDims.size(); ++k) {
        const auto d = std::size_t(m_outerDims[k]);
        if (k < m_pins.size()) {
            if (coords[d] != m_pins[k]) return std::nullopt;
        } else {
            cell.face = cell.face * m_shape[d] + coords[d];
        }
    }
    cell.row = m_rowDim < 0 ? 0 : coords[std::size_t(m_rowDim)];
    cell.col = m_colDim < 0 ? 0 : coords[std::size_t(m_colDim)];
    return cell;
}

std::vector<std::int64_t> FaceLayout::faceCoords(std::int64_t face) const
{
    return unravelIndex(faceBase(face), m_shape);
}

} // namespace ss::ui
