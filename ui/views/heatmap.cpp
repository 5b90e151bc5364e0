// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/heatmap.h"

#include "core/executor.h"
#include "core/mapped_file.h"
#include "ui/model/jobtracker.h"
#include "ui/model/stagetrace.h"
#include "ui/views/celleditor.h"
#include "ui/views/palette.h"
#include "ui/views/viewstate.h"

#include <QHelpEvent>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>
#include <utility>

namespace ss::ui {

namespace {

/// Faces with more cells in view than this are sampled rather than read whole: a .npy input is
/// a mapped file that may be bigger than memory (4 x 10^9 float32 is 16 GB), and reading every
/// element of it would take minutes of I/O. Up to here (10^8 elements of an in-memory tensor
/// read in a few tenths of a second), every element counts.
constexpr std::int64_t kExactCells = std::int64_t(1) << 28;
/// Sampled, each map cell reads at most this many rows by this many columns of its block, evenly
/// spaced from its first row and column: about a million elements for a full-screen map, and
/// about 1400 rows of the face (each face row read costs its pages on a first read).
constexpr std::int64_t kSamplesPerSide = 2;
/// Sampled, the value range of a tensor over kExactCells elements is the range over this many
/// runs of kRangeRun consecutive elements, evenly spaced from its first element to its last.
constexpr std::int64_t kRangeRuns = 1024;
constexpr std::int64_t kRangeRun = 4096;

/// The area sampled (at most one sample per cell each way), and how.
struct Grid : HeatMapArea
{
    /// Over kExactCells cells in view: each map cell reads kSamplesPerSide^2 of its block.
    bool sampled = false;

    /// How many of `cells` (a block's rows or columns) are read, and the k-th of them (k <
    /// that count), as an offset in the block.
    std::int64_t reads(std::int64_t cells) const
    {
        return sampled ? std::min(cells, kSamplesPerSide) : cells;
    }
    static std::int64_t nth(std::int64_t cells, std::int64_t count, std::int64_t k)
    {
        return count == cells ? k : cells * k / count;
    }

    /// The cells [first, end) of sample i of n over [from, from + cells): uneven blocks of at
    /// least one cell that tile the range.
    static std::pair<std::int64_t, std::int64_t> block(std::int64_t from, std::int64_t cells, int n,
                                                       std::int64_t i)
    {
        return {from + cells * i / n, from + cells * (i + 1) / n};
    }
};

/// Two cell centres whose half-cell margins reach exactly from the first cell's left edge to
/// the last cell's right edge: QCPColorMap draws its image over that span, whatever the image's
/// own size.
QCPRange spanFor(std::int64_t from, std::int64_t cells)
{
    const double lo = double(from) - 0.5;
    return {lo + double(cells) / 4, lo + 3 * double(cells) / 4};
}

/// One colour map's content, finished on the worker so the GUI thread only draws it.
struct MapLayer
{
    std::unique_ptr<QCPColorMapData> span; ///< 2 x 2: where the image goes, not its content
    QImage image;
};

/// Where each map column's block of face columns starts (entry i), and where the last one ends
/// (entry width): blocks of whole columns that tile [g.c0, g.c1), so a row of the face is read
/// once, in order, a block at a time.
std::vector<std::int64_t> columnEdges(const Grid& g)
{
    std::vector<std::int64_t> edges(std::size_t(g.width) + 1);
    for (int i = 0; i < g.width; ++i)
        edges[std::size_t(i)] = Grid::block(g.c0, g.c1 - g.c0, g.width, i).first;
    edges.back() = g.c1;
    return edges;
}

/// The map cells a pass gives to one task: map row j (face rows [firstRow, endRow)), its blocks
/// [firstBlock, endBlock).
struct MapPart
{
    std::int64_t j, firstRow, endRow;
    int firstBlock, endBlock;
};

/// Calls sample(part) for every part of the map, spread over the pool: each map row, cut into
/// stripes of blocks when the map has few rows (a rank-1 face has one), so that every worker
/// has its share.
template <class Sample>
void forEachMapPart(const Grid& g, Executor& pool, JobContext& ctx, Sample&& sample)
{
    constexpr int kMinParts = 64;
    const int stripes = std::clamp(kMinParts / g.height, 1, g.width);
    pool.parallelFor(
        std::int64_t(g.height) * stripes, 8,
        [&](std::int64_t p0, std::int64_t p1) {
            for (std::int64_t p = p0; p < p1; ++p) {
                const std::int64_t j = p / stripes, k = p % stripes;
                const auto [ra, rb] = Grid::block(g.r0, g.r1 - g.r0, g.height, j);
                const auto [i0, i1] = Grid::block(0, g.width, stripes, k);
                sample(MapPart{j, ra, rb, int(i0), int(i1)});
            }
        },
        &ctx);
}

/// Colours a map's samples (width x height, row-major; alpha per sample when translucent) into
/// its image the way QCPColorMap::updateMapImage would, spread over the pool: image row 0 holds
/// the last sample row; a tiny map is enlarged against QPainter's stretch jitter.
MapLayer colourLayer(const Grid& g, const std::vector<double>& cells,
                     const std::vector<unsigned char>* alpha, QCPColorGradient gradient,
                     const QCPRange& range, Executor& pool, JobContext& ctx)
{
    QImage image(g.width, g.height, QImage::Format_ARGB32_Premultiplied);
    uchar* bits = image.bits(); // once: the threads write disjoint lines
    const qsizetype stride = image.bytesPerLine();
    gradient.color(range.lower, range); // builds the colour table before the threads share it
    forEachMapPart(g, pool, ctx, [&](const MapPart& part) {
        auto* line =
            reinterpret_cast<QRgb*>(bits + (g.height - 1 - part.j) * stride) + part.firstBlock;
        const std::size_t at =
            std::size_t(part.j) * std::size_t(g.width) + std::size_t(part.firstBlock);
        const int n = part.endBlock - part.firstBlock;
        if (alpha)
            gradient.colorize(cells.data() + at, alpha->data() + at, range, line, n);
        else
            gradient.colorize(cells.data() + at, range, line, n);
    });
    MapLayer layer;
    layer.span = std::make_unique<QCPColorMapData>(2, 2, spanFor(g.c0, g.c1 - g.c0),
                                                   spanFor(g.r0, g.r1 - g.r0));
    const int kx = 1 + 100 / g.width;
    const int ky = 1 + 100 / g.height;
    layer.image = kx > 1 || ky > 1 ? image.scaled(g.width * kx, g.height * ky,
                                                  Qt::IgnoreAspectRatio, Qt::FastTransformation)
                                   : image;
    return layer;
}

/// A finite value range as the grey scale uses it: empty means nothing to scale, one value is
/// widened so that it sits in the middle.
QCPRange rangeOf(double lo, double hi)
{
    if (lo > hi) return {0.0, 1.0};
    if (lo == hi) return {lo - 0.5, hi + 0.5};
    return {lo, hi};
}

/// Each sample is the mean of its block (NaN if a NaN is in it, so NaNs never vanish when
/// zoomed out), with the finite values' range over everything read; strings have no magnitude
/// and get one neutral shade.
struct ValueSamples
{
    std::vector<double> cells;
    double lo = HUGE_VAL, hi = -HUGE_VAL;
};

// The value a cell's shade stands for: the number itself, a complex number's magnitude.
template <class T> double shadeValue(const T& v)
{
    if constexpr (kIsComplex<T>)
        return double(std::abs(v));
    else
        return realValue(v);
}

/// The values' pass over rows [0, rows) of a face whose rows are runs of consecutive elements
/// (`first` is row 0's element 0, rows `rowStride` apart) of a plain number type, every element
/// read: adds block i's sum into sums[i] (columns edges[i] .. edges[i + 1] - 1, i < blocks), and
/// lowers lo and
/// raises hi to the finite values' range. A chunk of columns at a time, the rows are added into
/// a sum, a minimum and a maximum per column, element by element: loops the compiler vectorises
/// (a sum per block chains its adds one after the other). Only the rare chunk that holds an
/// infinity is read again for its finite range.
template <class T>
void addContiguousRows(const T* first, std::int64_t rowStride, std::int64_t rows,
                       const std::int64_t* edges, std::size_t blocks, double* sums, double& lo,
                       double& hi)
{
    constexpr std::int64_t kChunk = 1024; // its three columns stay in the first-level cache
    constexpr bool kFloating = std::is_floating_point_v<T>;
    // A NaN never passes `v < least` or `most < v`: it is left out of the range by itself.
    constexpr T kHighest =
        kFloating ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
    constexpr T kLowest =
        kFloating ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
    std::array<double, kChunk> sum;
    std::array<T, kChunk> least, most;
    std::size_t i = 0;
    for (std::int64_t a = edges[0]; a < edges[blocks]; a += kChunk) {
        const std::int64_t n = std::min(edges[blocks], a + kChunk) - a;
        std::fill_n(sum.begin(), n, 0.0);
        std::fill_n(least.begin(), n, kHighest);
        std::fill_n(most.begin(), n, kLowest);
        for (std::int64_t r = 0; r < rows; ++r) {
            const T* at = first + r * rowStride + a;
            for (std::int64_t q = 0; q < n; ++q) {
                const T v = at[q];
                sum[std::size_t(q)] += double(v);
                least[std::size_t(q)] = v < least[std::size_t(q)] ? v : least[std::size_t(q)];
                most[std::size_t(q)] = most[std::size_t(q)] < v ? v : most[std::size_t(q)];
            }
        }
        double chunkLo = HUGE_VAL, chunkHi = -HUGE_VAL;
        for (std::int64_t q = 0; q < n; ++q) {
            chunkLo = std::min(chunkLo, double(least[std::size_t(q)]));
            chunkHi = std::max(chunkHi, double(most[std::size_t(q)]));
        }
        if (kFloating && (std::isinf(chunkLo) || std::isinf(chunkHi))) {
            chunkLo = HUGE_VAL;
            chunkHi = -HUGE_VAL;
            for (std::int64_t r = 0; r < rows; ++r)
                for (std::int64_t q = 0; q < n; ++q)
                    if (const double v = double(first[r * rowStride + a + q]); std::isfinite(v)) {
                        chunkLo = std::min(chunkLo, v);
                        chunkHi = std::max(chunkHi, v);
                    }
        }
        lo = std::min(lo, chunkLo);
        hi = std::max(hi, chunkHi);
        for (; i < blocks; ++i) {
            const std::int64_t from = std::max(edges[i], a), to = std::min(edges[i + 1], a + n);
            sums[i] += std::accumulate(sum.begin() + (from - a), sum.begin() + (to - a), 0.0);
            if (edges[i + 1] > a + n) break; // the block goes on in the next chunk
        }
    }
}

ValueSamples sampleValues(const Tensor& tensor, std::int64_t base, std::int64_t rs, std::int64_t cs,
                          const Grid& g, Executor& pool, JobContext& ctx)
{
    ValueSamples out;
    out.cells.assign(std::size_t(g.width) * std::size_t(g.height), 0.5);
    const std::vector<std::int64_t> edges = columnEdges(g);
    std::mutex merge;
    visitDType(tensor.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!std::is_same_v<T, std::string>) {
            forEachMapPart(g, pool, ctx, [&](const MapPart& part) {
                const std::int64_t ra = part.firstRow, rb = part.endRow;
                double* sums = out.cells.data() + part.j * g.width;
                std::fill(sums + part.firstBlock, sums + part.endBlock, 0.0);
                double lo = HUGE_VAL, hi = -HUGE_VAL;
                const std::int64_t rowReads = g.reads(rb - ra);
                bool contiguous = false;
                if constexpr (std::is_arithmetic_v<T>) {
                    contiguous = cs == 1 && !g.sampled;
                    if (contiguous)
                        addContiguousRows(tensor.data<T>() + base + ra * rs, rs, rb - ra,
                                          edges.data() + part.firstBlock,
                                          std::size_t(part.endBlock - part.firstBlock),
                                          sums + part.firstBlock, lo, hi);
                }
                // Else a block's sum and range stay in registers while its columns are read.
                for (std::int64_t k = 0; k < rowReads && !contiguous; ++k) {
                    const std::int64_t r = ra + Grid::nth(rb - ra, rowReads, k);
                    const T* row = tensor.data<T>() + base + r * rs;
                    for (int i = part.firstBlock; i < part.endBlock; ++i) {
                        const std::int64_t c0 = edges[std::size_t(i)];
                        const std::int64_t cells = edges[std::size_t(i) + 1] - c0;
                        const std::int64_t colReads = g.reads(cells);
                        double sum = 0;
                        const auto add = [&](const T& element) {
                            const double v = shadeValue(element);
                            sum += v;
                            if (std::isfinite(v)) {
                                lo = std::min(lo, v);
                                hi = std::max(hi, v);
                            }
                        };
                        if (colReads == cells) {
                            // Every column: four sums and ranges side by side, so that the adds
                            // do not wait for each other (one chain of dependent adds was the
                            // pass's bound, not the memory it reads).
                            const T* at = row + c0 * cs;
                            double part[4] = {0, 0, 0, 0};
                            double low[4] = {lo, lo, lo, lo}, high[4] = {hi, hi, hi, hi};
                            std::int64_t q = 0;
                            for (; q + 4 <= cells; q += 4, at += 4 * cs)
                                for (int u = 0; u < 4; ++u) {
                                    const double v = shadeValue(at[u * cs]);
                                    part[u] += v;
                                    const bool finite = std::isfinite(v);
                                    low[u] = std::min(low[u], finite ? v : HUGE_VAL);
                                    high[u] = std::max(high[u], finite ? v : -HUGE_VAL);
                                }
                            sum = (part[0] + part[1]) + (part[2] + part[3]);
                            lo = std::min(std::min(low[0], low[1]), std::min(low[2], low[3]));
                            hi = std::max(std::max(high[0], high[1]), std::max(high[2], high[3]));
                            for (; q < cells; ++q, at += cs)
                                add(*at);
                        } else {
                            for (std::int64_t q = 0; q < colReads; ++q)
                                add(row[(c0 + Grid::nth(cells, colReads, q)) * cs]);
                        }
                        sums[i] += sum;
                    }
                }
                for (int i = part.firstBlock; i < part.endBlock; ++i)
                    sums[i] /= double(rowReads) *
                               double(g.reads(edges[std::size_t(i) + 1] - edges[std::size_t(i)]));
                const std::lock_guard lock(merge);
                out.lo = std::min(out.lo, lo);
                out.hi = std::max(out.hi, hi);
            });
        }
    });
    return out;
}

/// Values in grey, low to high; unselected cells keep this quiet shade under the selection.
MapLayer valueLayer(const Grid& g, const std::vector<double>& cells, const QCPRange& range,
                    bool dark, Executor& pool, JobContext& ctx)
{
    QCPColorGradient grey;
    grey.clearColorStops();
    const QPalette theme = themePalette(dark ? Theme::Dark : Theme::Light);
    grey.setColorStopAt(0.0, roleColor(ColorRole::HeatLow, theme));
    grey.setColorStopAt(1.0, roleColor(ColorRole::HeatHigh, theme));
    grey.setNanHandling(QCPColorGradient::nhNanColor);
    grey.setNanColor(roleColor(ColorRole::HeatNaN, theme));
    return colourLayer(g, cells, nullptr, grey, range, pool, ctx);
}

/// The read-order ramp (from read position rampEnds.first to rampEnds.second) over the values,
/// translucent. Each block shows its first-read element
/// (transparent if nothing in it is read), so a sparse selection stays visible however far out
/// the view is zoomed.
MapLayer sampleSelection(const ReadOrderMap* order, std::pair<std::int64_t, std::int64_t> rampEnds,
                         std::int64_t base, std::int64_t rs, std::int64_t cs, const Grid& g,
                         Executor& pool, JobContext& ctx)
{
    const std::size_t n = std::size_t(g.width) * std::size_t(g.height);
    std::vector<double> cells(n, 0.0);
    std::vector<unsigned char> alpha(n, 0);
    if (order) {
        constexpr unsigned char kOpacity = 235;
        const std::vector<std::int64_t> edges = columnEdges(g);
        // The same blocks as offsets in a row's run of columns from g.c0 (blockMinima's edges).
        std::vector<std::int64_t> runEdges(edges.size());
        for (std::size_t i = 0; i < edges.size(); ++i)
            runEdges[i] = edges[i] - g.c0;
        forEachMapPart(g, pool, ctx, [&](const MapPart& part) {
            const std::int64_t ra = part.firstRow, rb = part.endRow;
            // Unsigned, "not read" (-1) is the largest value: the minimum is the first read.
            constexpr auto kNotRead = ReadRank(ReadPosition(-1));
            std::vector<ReadRank> first(std::size_t(g.width), kNotRead);
            // Positions that rise with the index (strides are never negative): a block's first
            // read is in its first row, and the other rows need not be read.
            const std::int64_t rowReads = order->ascending() ? 1 : g.reads(rb - ra);
            for (std::int64_t k = 0; k < rowReads; ++k) {
                const std::int64_t r = ra + Grid::nth(rb - ra, rowReads, k);
                if (g.sampled) {
                    // The sampled columns of each block, one read each.
                    for (int i = part.firstBlock; i < part.endBlock; ++i) {
                        const std::int64_t c0 = edges[std::size_t(i)];
                        const std::int64_t cells = edges[std::size_t(i) + 1] - c0;
                        const std::int64_t colReads = g.reads(cells);
                        for (std::int64_t q = 0; q < colReads; ++q) {
                            ReadPosition p = 0;
                            order->read(base + r * rs + (c0 + Grid::nth(cells, colReads, q)) * cs,
                                        cs, 1, &p);
                            first[std::size_t(i)] =
                                std::min(first[std::size_t(i)], ReadRank(p));
                        }
                    }
                    continue;
                }
                order->blockMinima(base + r * rs + g.c0 * cs, cs, runEdges.data() + part.firstBlock,
                                   std::size_t(part.endBlock - part.firstBlock),
                                   first.data() + part.firstBlock);
            }
            for (int i = part.firstBlock; i < part.endBlock; ++i) {
                if (first[std::size_t(i)] == kNotRead) continue;
                const std::size_t at = std::size_t(part.j) * std::size_t(g.width) + std::size_t(i);
                cells[at] = rampFraction(std::int64_t(first[std::size_t(i)]), rampEnds.first,
                                         rampEnds.second);
                alpha[at] = kOpacity;
            }
        });
    }
    QCPColorGradient ramp;
    ramp.clearColorStops();
    const auto& stops = readOrderStops();
    for (std::size_t i = 0; i < stops.size(); ++i)
        ramp.setColorStopAt(double(i) / double(stops.size() - 1), stops[i]);
    ramp.setLevelCount(256);
    return colourLayer(g, cells, &alpha, ramp, QCPRange(0.0, 1.0), pool, ctx);
}

/// The finite values' range of v[0, n) as {lo, hi} (none: {HUGE_VAL, -HUGE_VAL}). Integers and
/// float32/float64 are compared in their own type, the floats in 16 lanes side by side, so that
/// the compiler makes vector instructions of it (10^7 elements on one thread: float32 1.9 ms,
/// float64 4.0, int32 2.7, where converting each to a double and branching took 6.1-6.9).
/// 16-bit floats and complex numbers go through shadeValue.
template <class T> std::pair<double, double> finiteRange(const T* v, std::int64_t n)
{
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    std::int64_t i = 0;
    if constexpr (std::is_integral_v<T>) {
        if (n == 0) return {lo, hi};
        T l = v[0], h = v[0];
        for (; i < n; ++i) {
            l = std::min(l, v[i]);
            h = std::max(h, v[i]);
        }
        return {double(l), double(h)};
    } else if constexpr (std::is_floating_point_v<T>) {
        constexpr int kLanes = 16;
        constexpr T inf = std::numeric_limits<T>::infinity();
        std::array<T, kLanes> low, high;
        low.fill(inf);
        high.fill(-inf);
        for (; i + kLanes <= n; i += kLanes)
            for (int u = 0; u < kLanes; ++u) {
                const T x = v[i + u];
                // False for NaN and the infinities; a select, not a branch.
                const bool finite = std::abs(x) <= std::numeric_limits<T>::max();
                low[u] = std::min(low[u], finite ? x : inf);
                high[u] = std::max(high[u], finite ? x : -inf);
            }
        for (int u = 0; u < kLanes; ++u) {
            lo = std::min(lo, double(low[u]));
            hi = std::max(hi, double(high[u]));
        }
    }
    for (; i < n; ++i) {
        const double x = shadeValue(v[i]);
        if (std::isfinite(x)) {
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
    }
    return {lo, hi};
}

/// The finite values' range over the whole tensor, so every face shares one grey scale.
/// Over kExactCells elements, the range over kRangeRuns runs of kRangeRun elements instead.
QCPRange valueRange(const Tensor& tensor, Executor& pool, JobContext& ctx)
{
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    std::mutex merge;
    const std::int64_t n = tensor.size();
    const bool sampled = n > kExactCells;
    visitDType(tensor.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!std::is_same_v<T, std::string>) {
            const T* v = tensor.data<T>();
            auto scan = [&](std::int64_t a, std::int64_t b) {
                const auto [l, h] = finiteRange(v + a, b - a);
                const std::lock_guard lock(merge);
                lo = std::min(lo, l);
                hi = std::max(hi, h);
            };
            if (!sampled) {
                pool.parallelFor(n, 1 << 18, scan, &ctx);
                return;
            }
            pool.parallelFor(
                kRangeRuns, 16,
                [&](std::int64_t a, std::int64_t b) {
                    for (std::int64_t k = a; k < b; ++k) {
                        const std::int64_t first = (n - kRangeRun) / (kRangeRuns - 1) * k;
                        scan(first, first + kRangeRun);
                    }
                },
                &ctx);
        }
    });
    return rangeOf(lo, hi);
}

/// The top layer: outlines and the hovered cell, redrawn without redrawing the maps.
class MarksLayerable : public QCPLayerable
{
public:
    MarksLayerable(QCustomPlot* plot, std::function<void(QCPPainter*)> draw)
        : QCPLayerable(plot, QStringLiteral("overlay")), m_draw(std::move(draw))
    {
    }

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override
    {
        painter->setAntialiasing(false);
    }
    void draw(QCPPainter* painter) override { m_draw(painter); }
    QRect clipRect() const override { return mParentPlot->axisRect()->rect(); }

private:
    std::function<void(QCPPainter*)> m_draw;
};

} // namespace

/// A colour map whose image comes finished from the worker: QCustomPlot would otherwise colour
/// every cell on the GUI thread at the next replot.
class PrebuiltColorMap : public QCPColorMap
{
public:
    using QCPColorMap::QCPColorMap;

    void setLayer(MapLayer layer)
    {
        setData(layer.span.release(), false);
        m_image = std::move(layer.image);
    }

protected:
    void updateMapImage() override
    {
        mMapImage = m_image; // shared, not copied
        mMapImageInvalidated = false;
    }

private:
    QImage m_image;
};

struct HeatMap::Samples
{
    std::optional<MapLayer> values;
    std::optional<MapLayer> selection;
    std::optional<QCPRange> valueRange;
};

HeatMap::HeatMap(ViewState& state, QWidget* parent)
    : QCustomPlot(parent), m_state(state), m_jobs(new JobTracker(this)),
      m_editor(new CellEditor(state.model, this)), m_resampleTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("heatMap"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // A replot asks for a paint instead of painting at once (QCustomPlot's default): the window's
    // next paint shows all that changed together. Painting each plot in its own replot took a
    // third of the replots' time, and dynamic_partition's 8 outputs are 8 replots in one pass.
    setPlottingHint(QCP::phImmediateRefresh, false);
    axisRect()->setRangeDragAxes(xAxis2, yAxis);
    axisRect()->setRangeZoomAxes(xAxis2, yAxis);
    // Columns are labelled on top and rows grow downwards, as in the cell drawing.
    xAxis->setVisible(false);
    xAxis2->setVisible(true);
    yAxis->setRangeReversed(true);
    for (QCPAxis* axis : {xAxis2, yAxis}) {
        auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
        ticker->setTickStep(1.0);
        ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        axis->setTicker(ticker);
        axis->grid()->setVisible(false);
        axis->setSubTicks(false);
    }

    m_values = new PrebuiltColorMap(xAxis2, yAxis);
    m_selection = new PrebuiltColorMap(xAxis2, yAxis);
    for (QCPColorMap* map : {m_values, m_selection}) {
        map->setInterpolate(false);
        map->setTightBoundary(false);
    }
    m_selection->setDataRange(QCPRange(0.0, 1.0));

    // The marks go on QCustomPlot's own top layer, which has a paint buffer of its own: every
    // further buffer is cleared on every replot and blended on every paint, a few ms each at
    // the size of a window.
    m_marksLayer = layer(QStringLiteral("overlay"));
    new MarksLayerable(this, [this](QCPPainter* p) { drawMarks(p); });

    // Zooming and panning resample what became visible; a burst of wheel steps or drag moves
    // asks once.
    m_resampleTimer->setSingleShot(true);
    m_resampleTimer->setInterval(15);
    connect(m_resampleTimer, &QTimer::timeout, this, &HeatMap::resampleIfMoved);
    connect(m_jobs, &JobTracker::idle, this, &HeatMap::settled);
    connect(this, &QCustomPlot::beforeReplot, this, [this] {
        stagetrace::mark("gui: heat map replot starts", this);
        m_plottedSize = size();
    });
    connect(this, &QCustomPlot::afterReplot, this, [this] {
        stagetrace::mark("gui: heat map replot ends", this);
        // A queued replot was the last thing pending (isSettled): what is drawn is settled now.
        if (isSettled()) emit settled();
    });
    connect(xAxis2, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
        clampRange(xAxis2, m_state.layout.cols());
        m_resampleTimer->start();
    });
    connect(yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
        clampRange(yAxis, m_state.layout.rows());
        m_resampleTimer->start();
    });
    refreshLook();
}

void HeatMap::clampRange(QCPAxis* axis, std::int64_t cells)
{
    const double lo = -0.5, hi = double(cells) - 0.5;
    const double minSpan = std::min<double>(double(cells), 4.0);
    const QCPRange r = axis->range();
    const double span = std::clamp(r.size(), minSpan, hi - lo);
    const double lower = std::clamp(r.lower, lo, hi - span);
    if (lower != r.lower || span != r.size()) {
        const QSignalBlocker block(axis);
        axis->setRange(lower, lower + span);
    }
}

void HeatMap::resetFace(bool newValues)
{
    m_editor->cancel();
    if (newValues) m_haveRange = false;
    // A face of the same size keeps the zoom: an edit re-evaluates, it does not move the view.
    const std::int64_t rows = m_state.layout.rows();
    const std::int64_t cols = m_state.layout.cols();
    if (rows != m_faceRows || cols != m_faceCols) {
        const QSignalBlocker blockX(xAxis2);
        const QSignalBlocker blockY(yAxis);
        xAxis2->setRange(-0.5, double(cols) - 0.5);
        yAxis->setRange(-0.5, double(rows) - 0.5);
        m_faceRows = rows;
        m_faceCols = cols;
    }
    // The new axes are drawn with the new samples, not before them.
    applyLook();
    requestSamples(true, true);
}

void HeatMap::refreshSelection()
{
    requestSamples(false, true);
}

void HeatMap::refreshMarks()
{
    if (isVisible()) m_marksLayer->replot();
}

void HeatMap::redraw()
{
    // A hidden plot has no paint buffers yet; showEvent draws it when it appears.
    if (isVisible()) replot(QCustomPlot::rpQueuedReplot);
}

void HeatMap::refreshLook()
{
    applyLook();
    redraw();
}

void HeatMap::applyLook()
{
    const QPalette& pal = palette();
    setBackground(pal.color(QPalette::Base));
    axisRect()->setBackground(pal.color(QPalette::Base));
    const QColor text = pal.color(QPalette::Text);
    const FaceLayout& layout = m_state.layout;
    const auto setAxis = [&](QCPAxis* axis, int dim, const QString& role) {
        const bool lit = dim >= 0 && m_state.isFocused(dim);
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setTickLabelColor(text);
        QFont f = font();
        f.setBold(lit);
        axis->setLabelFont(f);
        axis->setLabelColor(lit ? focusText(pal) : text);
        axis->setLabel(dim >= 0 ? tr("dim %1 (%2)").arg(dim).arg(role) : QString());
        axis->setTickLabels(dim >= 0);
    };
    setAxis(xAxis2, layout.colDim(), tr("columns"));
    setAxis(yAxis, layout.rowDim(), tr("rows"));
}

void HeatMap::requestSamples(bool values, bool selection)
{
    m_valuesWanted = m_valuesWanted || values;
    m_selectionWanted = m_selectionWanted || selection;
    // A new tensor and its read order arrive one call after the other: one sampling serves both.
    if (std::exchange(m_startQueued, true)) return;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_startQueued = false;
            startSampling();
        },
        Qt::QueuedConnection);
}

HeatMapArea HeatMap::areaInView()
{
    // The axis rect follows a resize at the next replot's layout: lay it out now.
    updateLayout();
    const FaceLayout& layout = m_state.layout;
    const QCPRange xr = xAxis2->range();
    const QCPRange yr = yAxis->range();
    HeatMapArea a;
    a.c0 = std::clamp<std::int64_t>(std::int64_t(std::floor(xr.lower + 0.5)), 0, layout.cols() - 1);
    a.c1 = std::clamp<std::int64_t>(std::int64_t(std::floor(xr.upper + 0.5)) + 1, a.c0 + 1,
                                    layout.cols());
    a.r0 = std::clamp<std::int64_t>(std::int64_t(std::floor(yr.lower + 0.5)), 0, layout.rows() - 1);
    a.r1 = std::clamp<std::int64_t>(std::int64_t(std::floor(yr.upper + 0.5)) + 1, a.r0 + 1,
                                    layout.rows());
    // No more samples than pixels: a bigger face is averaged down to the screen.
    const QRect area = axisRect()->rect();
    const qreal dpr = devicePixelRatioF();
    // No more samples than cells either: each sample is a block of whole columns and rows.
    a.width = int(std::max<std::int64_t>(
        1, std::min<std::int64_t>(a.c1 - a.c0, std::int64_t(area.width() * dpr))));
    a.height = int(std::max<std::int64_t>(
        1, std::min<std::int64_t>(a.r1 - a.r0, std::int64_t(area.height() * dpr))));
    return a;
}

void HeatMap::resampleIfMoved()
{
    // A new face's sampling read the plot's size as the face's relayout left it (a higher rank
    // shows the face box): the resize that relayout made has nothing to add to it.
    if (m_state.layout.hasElements() && areaInView() != m_sampledArea) requestSamples(true, true);
}

void HeatMap::startSampling()
{
    const FaceLayout& layout = m_state.layout;
    if (!layout.hasElements()) return;
    stagetrace::mark("gui: heat map sampling starts", this);
    Grid g{areaInView()};
    m_sampledArea = g;
    g.sampled = (g.r1 - g.r0) > kExactCells / (g.c1 - g.c0);

    // Work asked for after this call goes to the next sampling, even if this one ends first.
    const bool wantValues = m_valuesSampling = m_valuesSampling || m_valuesWanted;
    const bool wantSelection = m_selectionSampling = m_selectionSampling || m_selectionWanted;
    m_valuesWanted = m_selectionWanted = false;
    const bool wantRange = wantValues && !m_haveRange;
    const Tensor tensor = m_state.model->tensor();
    const ReadOrder order = m_state.model->readOrder();
    const auto ramp = m_state.rampEnds();
    const ReadOrder selected = m_state.hasSelection() ? order : nullptr;
    const std::int64_t base = layout.faceBase(0);
    const std::int64_t rs = layout.rowStride();
    const std::int64_t cs = layout.colStride();
    const QCPRange knownRange = m_valueRange;
    // A face that is the whole tensor, all in view, gives the value range on the way.
    const bool seesEverything = !g.sampled && layout.faceCells() == tensor.size() && g.r0 == 0 &&
                                g.r1 == layout.rows() && g.c0 == 0 && g.c1 == layout.cols();
    const bool dark = isDark(palette());
    Executor* pool = &m_jobs->pool(); // it outlives the jobs running on it
    m_jobs->start(
        [=, this](JobContext& ctx, const JobTracker::Delivery& to) {
            stagetrace::mark("worker: heat map job starts", this);
            auto samples = std::make_shared<Samples>();
            // A sample of a mapped file bigger than memory: no readahead around each page (on a
            // first read, 12 s instead of 1 s for 16 GB).
            const ScatteredReads scattered(tensor.raw(), tensor.size() * dtypeSize(tensor.dtype()),
                                           wantValues && g.sampled &&
                                               tensor.dtype() != DType::String);
            if (wantValues) {
                const ValueSamples values = sampleValues(tensor, base, rs, cs, g, *pool, ctx);
                stagetrace::mark("worker: heat map values sampled", this);
                if (wantRange) {
                    samples->valueRange = seesEverything ? rangeOf(values.lo, values.hi)
                                                         : valueRange(tensor, *pool, ctx);
                    stagetrace::mark("worker: heat map value range", this);
                }
                samples->values = valueLayer(
                    g, values.cells, samples->valueRange.value_or(knownRange), dark, *pool, ctx);
                stagetrace::mark("worker: heat map values coloured", this);
            }
            if (wantSelection) {
                samples->selection =
                    sampleSelection(selected.get(), ramp, base, rs, cs, g, *pool, ctx);
                stagetrace::mark("worker: heat map selection sampled", this);
            }
            // The tracker drops this if a newer sampling started: it covers this one's work.
            to.post([this, samples] { applySamples(samples); });
        },
        [this](Job::State, std::exception_ptr) {
            m_sampledArea = {}; // what is drawn is older: the next move samples again
            applySamples(nullptr);
        });
}

void HeatMap::applySamples(std::shared_ptr<Samples> samples)
{
    stagetrace::mark("gui: heat map samples applied", this);
    if (samples) {
        if (samples->valueRange) {
            m_valueRange = *samples->valueRange;
            m_haveRange = true;
        }
        if (samples->values) {
            m_values->setLayer(std::move(*samples->values));
            m_values->setDataRange(m_valueRange);
        }
        if (samples->selection) m_selection->setLayer(std::move(*samples->selection));
    }
    m_valuesSampling = m_selectionSampling = false;
    redraw(); // `settled` follows when the tracker is idle
}

bool HeatMap::isSettled() const
{
    // A replot still queued (a sampling's, a show's, a resize's) has yet to draw what is newest.
    return !m_startQueued && !m_jobs->isBusy() && !m_resampleTimer->isActive() && !mReplotQueued &&
           !m_resizeReplotQueued;
}

QRectF HeatMap::cellPixels(std::int64_t row, std::int64_t col) const
{
    const double x0 = xAxis2->coordToPixel(double(col) - 0.5);
    const double x1 = xAxis2->coordToPixel(double(col) + 0.5);
    const double y0 = yAxis->coordToPixel(double(row) - 0.5);
    const double y1 = yAxis->coordToPixel(double(row) + 0.5);
    return QRectF(QPointF(std::min(x0, x1), std::min(y0, y1)),
                  QPointF(std::max(x0, x1), std::max(y0, y1)));
}

std::pair<int, int> HeatMap::pixelSpan(const QCPAxis* axis, std::int64_t cell) const
{
    const double a = axis->coordToPixel(double(cell) - 0.5);
    const double b = axis->coordToPixel(double(cell) + 0.5);
    return {int(std::ceil(std::min(a, b) - 0.5)), int(std::ceil(std::max(a, b) - 0.5)) - 1};
}

std::int64_t HeatMap::cellAt(const QCPAxis* axis, int pixel) const
{
    const auto guess = std::int64_t(std::floor(axis->pixelToCoord(pixel + 0.5) + 0.5));
    // pixelToCoord and coordToPixel may round apart at a boundary: the spans decide.
    for (const std::int64_t cell : {guess, guess - 1, guess + 1}) {
        const auto [first, last] = pixelSpan(axis, cell);
        if (first <= pixel && pixel <= last) return cell;
    }
    return guess;
}

std::int64_t HeatMap::elementAt(const QPoint& pos) const
{
    const FaceLayout& layout = m_state.layout;
    if (!layout.hasElements() || !axisRect()->rect().contains(pos)) return -1;
    const std::int64_t col = cellAt(xAxis2, pos.x());
    const std::int64_t row = cellAt(yAxis, pos.y());
    if (row < 0 || row >= layout.rows() || col < 0 || col >= layout.cols()) return -1;
    return layout.flatIndex({0, row, col});
}

QRect HeatMap::elementRect(std::int64_t flat) const
{
    const auto cell = m_state.layout.locate(flat);
    if (!cell) return {};
    // Exactly the pixels elementAt() gives to this element: those whose centres fall inside its
    // cell. Zoomed out past a pixel per element, most elements have none.
    const auto [left, right] = pixelSpan(xAxis2, cell->col);
    const auto [top, bottom] = pixelSpan(yAxis, cell->row);
    if (right < left || bottom < top) return {};
    // QCustomPlot maps a vertical range one pixel past the axis rect's top: clip to it.
    const QRect rect =
        QRect(QPoint(left, top), QPoint(right, bottom)).intersected(axisRect()->rect());
    return rect.isEmpty() ? QRect() : rect;
}

void HeatMap::ensureVisible(std::int64_t flat)
{
    const auto cell = m_state.layout.locate(flat);
    if (!cell) return;
    const auto centreOn = [](QCPAxis* axis, double at) {
        const QCPRange r = axis->range();
        if (at - 0.5 < r.lower || at + 0.5 > r.upper)
            axis->setRange(at - r.size() / 2, at + r.size() / 2);
    };
    centreOn(xAxis2, double(cell->col));
    centreOn(yAxis, double(cell->row));
}

void HeatMap::drawMarks(QCPPainter* painter)
{
    const QRect area = axisRect()->rect();
    const FaceLayout& layout = m_state.layout;
    // A mark is never smaller than this, so an outlined cell is seen even when zoomed out.
    constexpr double kMinMark = 9;
    const auto markRect = [&](std::int64_t flat) -> std::optional<QRectF> {
        const auto cell = layout.locate(flat);
        if (!cell) return std::nullopt;
        QRectF r = cellPixels(cell->row, cell->col);
        if (!r.intersects(area)) return std::nullopt;
        const QPointF c = r.center();
        r.setWidth(std::max(r.width(), kMinMark));
        r.setHeight(std::max(r.height(), kMinMark));
        r.moveCenter(c);
        return r;
    };
    // Past this many, further outlines would cover the map rather than point into it.
    constexpr std::size_t kMaxOutlines = 4000;
    const auto& outlined = m_state.model->outlined();
    painter->setBrush(Qt::NoBrush);
    for (std::size_t i = 0; i < std::min(outlined.size(), kMaxOutlines); ++i) {
        if (const auto r = markRect(outlined[i])) {
            painter->setPen(QPen(roleColor(ColorRole::CellHalo), 3));
            painter->drawRect(r->adjusted(1, 1, -1, -1));
            painter->setPen(QPen(roleColor(ColorRole::CellOutline), 1));
            painter->drawRect(r->adjusted(3, 3, -3, -3));
        }
    }
    if (m_state.hovered >= 0) {
        if (const auto r = markRect(m_state.hovered)) {
            painter->setPen(QPen(palette().color(QPalette::Highlight), 2));
            painter->drawRect(r->adjusted(1, 1, -1, -1));
        }
    }
}

void HeatMap::setHovered(std::int64_t flat)
{
    if (flat == m_state.hovered) return;
    m_state.hovered = flat;
    refreshMarks();
    emit hovered(flat);
}

void HeatMap::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    setHovered(elementAt(event->position().toPoint()));
}

void HeatMap::mouseDoubleClickEvent(QMouseEvent* event)
{
    const std::int64_t flat = elementAt(event->position().toPoint());
    if (flat >= 0 && m_state.model->isEditable())
        m_editor->open(flat, elementRect(flat), m_state.model->formatter().editText(flat), true);
    else
        QCustomPlot::mouseDoubleClickEvent(event);
}

void HeatMap::leaveEvent(QEvent* event)
{
    QCustomPlot::leaveEvent(event);
    setHovered(-1);
}

void HeatMap::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        refreshLook();
        requestSamples(true, true); // the grey scale follows the theme
    }
}

void HeatMap::showEvent(QShowEvent* event)
{
    QCustomPlot::showEvent(event);
    replot(QCustomPlot::rpQueuedReplot);
    m_resampleTimer->start(); // its size may have changed while it was hidden
}

void HeatMap::resizeEvent(QResizeEvent* event)
{
    // QCustomPlot replots at once on every resize. A splitter resizes all its views each time
    // one comes or goes (dynamic_partition's hand-over of 8 outputs replotted the first ones 4-5
    // times in one call: 40% of its GUI time at 10^6): the replot waits for the next pass of the
    // event loop instead, once, and before the paint that shows the new size (a paint request is
    // a low-priority event). By then the plot may be back at the size it was drawn at (a column
    // of views squeezed by a new one, then grown to make room for it): nothing to redraw.
    QWidget::resizeEvent(event);
    setViewport(rect());
    if (!std::exchange(m_resizeReplotQueued, true))
        QMetaObject::invokeMethod(this, &HeatMap::replotIfResized, Qt::QueuedConnection);
    m_editor->cancel();
    if (isVisible()) // a hidden page of the view's stack is resampled when it is shown
        m_resampleTimer->start();
}

void HeatMap::replotIfResized()
{
    m_resizeReplotQueued = false;
    // A replot already queued draws at the new size too.
    if (size() != m_plottedSize && !mReplotQueued)
        replot(); // says `settled` when it ends
    else if (isSettled())
        emit settled();
}

bool HeatMap::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const std::int64_t flat = elementAt(help->pos());
        if (flat < 0 || !m_state.toolTip)
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), m_state.toolTip(flat), this, elementRect(flat));
        return true;
    }
    return QCustomPlot::event(event);
}

} // namespace ss::ui
