// SPDX-License-Identifier: GPL-3.0-or-later
// Which elements a tensor view shows where: two dimensions form a 2-D face (rows and columns),
// the others index faces; the outermost of those may be pinned to one index each when there
// would be too many faces to show at once.
#pragma once

#include "core/shape.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ss::ui {

struct FaceCell
{
    std::int64_t face = 0;
    std::int64_t row = 0;
    std::int64_t col = 0;
};

class FaceLayout
{
public:
    FaceLayout() = default;
    /// `rowDim`/`colDim` that are not two distinct dimensions of `shape` select the defaults:
    /// the last two (rank 1: one row of dim 0; rank 0: a single cell).
    FaceLayout(const Shape& shape, int rowDim, int colDim);

    const Shape& shape() const { return m_shape; }
    int rank() const { return int(m_shape.size()); }
    /// -1 when the face has a single row (rank 0 and 1).
    int rowDim() const { return m_rowDim; }
    /// -1 for rank 0.
    int colDim() const { return m_colDim; }
    /// The other dimensions, outermost first.
    const std::vector<int>& outerDims() const { return m_outerDims; }
    bool hasElements() const { return m_hasElements; }

    std::int64_t rows() const { return m_rowDim < 0 ? 1 : m_shape[m_rowDim]; }
    std::int64_t cols() const { return m_colDim < 0 ? 1 : m_shape[m_colDim]; }
    std::int64_t faceCells() const { return rows() * cols(); }
    std::int64_t rowStride() const { return m_rowDim < 0 ? 0 : m_strides[m_rowDim]; }
    std::int64_t colStride() const { return m_colDim < 0 ? 0 : m_strides[m_colDim]; }

    /// Index values of the pinned outer dims: pins()[k] belongs to outerDims()[k].
    const std::vector<std::int64_t>& pins() const { return m_pins; }
    /// Pins the fewest outermost dims that leave at most `maxFaces` faces and `maxCells`
    /// cells (0: pin every outer dim). Pins that stay keep their values.
    void pinFor(std::int64_t maxFaces, std::int64_t maxCells);
    /// Sets pinned dim k (an index into pins()) to `value`, clamped to the dimension.
    void setPin(int k, std::int64_t value);
    /// Moves the pins so that element `flat` is shown; returns whether they changed.
    bool pinTo(std::int64_t flat);

    /// Faces left by the pins (0 when the tensor has no elements).
    std::int64_t faceCount() const;
    /// Faces come in runs along the innermost unpinned outer dim: its size, or 1.
    std::int64_t groupSize() const;
    /// The flat index of cell [0, 0] of a shown face.
    std::int64_t faceBase(std::int64_t face) const;
    std::int64_t flatIndex(const FaceCell& cell) const
    {
        return faceBase(cell.face) + cell.row * rowStride() + cell.col * colStride();
    }
    /// Where element `flat` is drawn, or nullopt if the pins hide it.
    std::optional<FaceCell> locate(std::int64_t flat) const;
    /// Every coordinate of a face's cell [0, 0], by dimension.
    std::vector<std::int64_t> faceCoords(std::int64_t face) const;

    /// Calls f(flat) for every shown element, face by face in row-major order.
    template <class F> void forEachShown(F&& f) const
    {
        const std::int64_t faces = faceCount();
        for (std::int64_t face = 0; face < faces; ++face) {
            const std::int64_t base = faceBase(face);
            for (std::int64_t r = 0; r < rows(); ++r)
                for (std::int64_t c = 0; c < cols(); ++c)
                    f(base + r * rowStride() + c * colStride());
        }
    }

private:
    std::int64_t freeSize(std::size_t fromOuter) const;

    Shape m_shape;
    std::vector<std::int64_t> m_strides;
    int m_rowDim = -1;
    int m_colDim = -1;
    std::vector<int> m_outerDims;
    std::vector<std::int64_t> m_pins;
    bool m_hasElements = false;
};

} // namespace ss::ui
