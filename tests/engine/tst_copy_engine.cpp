// SPDX-License-Identifier: GPL-3.0-or-later
// The copy engine against a naive reference: random affine pieces (any stride signs, zero
// strides, transposes that take the tiled path), row pieces with constants, every element
// width and strings, and cancellation.
#include "op_runner.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <numeric>
#include <random>

Q_DECLARE_METATYPE(ss::Attrs)

using namespace ss;
using namespace ss::testing;

namespace {

// A random affine piece over a random input: output dimensions are a permutation of the
// iteration dimensions, so every output element is written exactly once.
struct RandomAffine
{
    Shape inputShape;
    Shape outShape;
    AffinePiece piece;
};

RandomAffine randomAffine(std::mt19937_64& rng, bool bigTiles)
{
    RandomAffine r;
    // Tiled cases use up to three long dimensions, the others up to five short ones.
    const int rank = bigTiles ? int(rng() % 2) + 2 : int(rng() % 5) + 1;
    for (int k = 0; k < rank; ++k)
        r.inputShape.push_back(bigTiles ? std::int64_t(rng() % 70) + 1
                                        : std::int64_t(rng() % 6) + 1);
    const auto inStrides = rowMajorStrides(r.inputShape);
    // Per dimension: a start, a stride (either sign, sometimes 0) and a count that stays inside.
    std::vector<std::int64_t> extents, inS;
    std::int64_t offset = 0;
    for (int k = 0; k < rank; ++k) {
        const std::int64_t d = r.inputShape[std::size_t(k)];
        std::int64_t step = std::int64_t(rng() % 3) + 1;
        if (rng() % 3 == 0) step = -step;
        if (rng() % 8 == 0) step = 0;
        const std::int64_t start = step < 0 ? d - 1 - std::int64_t(rng() % std::uint64_t(d))
                                            : std::int64_t(rng() % std::uint64_t(d));
        std::int64_t room = step > 0   ? (d - 1 - start) / step + 1
                            : step < 0 ? start / -step + 1
                                       : 4;
        extents.push_back(std::int64_t(rng() % std::uint64_t(room)) + 1);
        inS.push_back(step * inStrides[std::size_t(k)]);
        offset += start * inStrides[std::size_t(k)];
    }
    std::vector<int> perm(static_cast<std::size_t>(rank));
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    for (int k = 0; k < rank; ++k)
        r.outShape.push_back(extents[std::size_t(perm[std::size_t(k)])]);
    const auto outStrides = rowMajorStrides(r.outShape);
    r.piece.slot = 0;
    r.piece.inOffset = offset;
    r.piece.extents = extents;
    r.piece.inStrides = inS;
    r.piece.outStrides.assign(std::size_t(rank), 0);
    for (int k = 0; k < rank; ++k)
        r.piece.outStrides[std::size_t(perm[std::size_t(k)])] = outStrides[std::size_t(k)];
    return r;
}

// The reference: walk every coordinate and compute both addresses directly.
SourceList naiveSources(const AffinePiece& p, std::int64_t outSize)
{
    SourceList src(std::size_t(outSize), -2); // not a source: a hole would fail the comparison
    const std::int64_t n = numElements(p.extents);
    for (std::int64_t flat = 0; flat < n; ++flat) {
        const auto c = unravelIndex(flat, p.extents);
        std::int64_t o = p.outOffset, i = p.inOffset;
        for (std::size_t k = 0; k < c.size(); ++k) {
            o += c[k] * p.outStrides[k];
            i += c[k] * p.inStrides[k];
        }
        src[std::size_t(o)] = packSource(p.slot, i);
    }
    return src;
}

OpPlan planOf(OutputPlan out)
{
    OpPlan plan;
    plan.outputs.push_back(std::move(out));
    return plan;
}

// The input of `shape` permuted by `perm` (output axis k is input axis perm[k]), input axes with
// `flipped` set read backwards: one affine piece, as transpose and reverse plan it.
struct Permuted
{
    Shape outShape;
    AffinePiece piece;
};

Permuted permuted(const Shape& shape, const std::vector<int>& perm,
                  const std::vector<bool>& flipped)
{
    Permuted r;
    const auto inStrides = rowMajorStrides(shape);
    for (int axis : perm)
        r.outShape.push_back(shape[std::size_t(axis)]);
    r.piece.slot = 0;
    r.piece.extents = r.outShape;
    r.piece.outStrides = rowMajorStrides(r.outShape);
    for (int axis : perm) {
        const auto k = std::size_t(axis);
        r.piece.inStrides.push_back(flipped[k] ? -inStrides[k] : inStrides[k]);
        if (flipped[k] && shape[k] > 0) r.piece.inOffset += (shape[k] - 1) * inStrides[k];
    }
    return r;
}

// Runs the piece (row-major output strides) over a random input of `shape` through the engine
// and checks every output element against the input element the piece names, walked with an
// odometer (no per-element allocation: some cases are 8 MB).
void checkPiece(DType dtype, const Shape& shape, const Permuted& p)
{
    const Tensor input = makeFilled(dtype, shape, Fill::Random, 99, {});
    OutputPlan out;
    out.dtype = dtype;
    out.shape = p.outShape;
    out.pieces.push_back(p.piece);
    const Tensor result = executePlan(planOf(out), {input}, testExecutor())[0];
    QCOMPARE(result.shape(), p.outShape);
    const std::size_t width = std::size_t(dtypeSize(dtype));
    const auto* got = static_cast<const unsigned char*>(result.raw());
    const auto* from = static_cast<const unsigned char*>(input.raw());
    const std::size_t rank = p.outShape.size();
    std::vector<std::int64_t> c(rank, 0);
    std::int64_t i = p.piece.inOffset;
    for (std::int64_t o = 0; o < result.size(); ++o) {
        if (std::memcmp(got + std::size_t(o) * width, from + std::size_t(i) * width, width) != 0)
            QFAIL(("output element " + std::to_string(o) + " is not input element " +
                   std::to_string(i))
                      .c_str());
        for (std::size_t k = rank; k-- > 0;) {
            i += p.piece.inStrides[k];
            if (++c[k] < p.outShape[k]) break;
            i -= p.piece.inStrides[k] * p.outShape[k];
            c[k] = 0;
        }
    }
}

void checkPermuted(DType dtype, const Shape& shape, const std::vector<int>& perm,
                   const std::vector<bool>& flipped)
{
    checkPiece(dtype, shape, permuted(shape, perm, flipped));
}

} // namespace

class TestCopyEngine : public QObject
{
    Q_OBJECT
private slots:
    void randomAffinePieces_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<bool>("bigTiles");
        for (DType t : {DType::Bool, DType::Int16, DType::Float32, DType::Int64, DType::String}) {
            QTest::newRow((std::string(dtypeName(t)) + " small").c_str()) << int(t) << false;
            QTest::newRow((std::string(dtypeName(t)) + " tiled").c_str()) << int(t) << true;
        }
    }

    void randomAffinePieces()
    {
        QFETCH(int, dtype);
        QFETCH(bool, bigTiles);
        std::mt19937_64 rng(1234 + std::uint64_t(dtype) * 7 + bigTiles);
        for (int round = 0; round < (bigTiles ? 60 : 400); ++round) {
            const RandomAffine r = randomAffine(rng, bigTiles);
            const Tensor input = makeFilled(DType(dtype), r.inputShape, Fill::Random, rng(), {});
            OutputPlan out;
            out.dtype = DType(dtype);
            out.shape = r.outShape;
            out.pieces.push_back(r.piece);
            const OpPlan plan = planOf(out);
            const auto expected = naiveSources(r.piece, numElements(r.outShape));
            QCOMPARE(planSources(plan, 0, testExecutor()), expected);
            const Tensor result = executePlan(plan, {input}, testExecutor())[0];
            for (std::int64_t i = 0; i < result.size(); ++i)
                QVERIFY(sameElement(result, i, input, sourceIndex(expected[std::size_t(i)])));
        }
    }

    // Transposes go through register blocks: 1- and 2-byte elements through line-square tiles,
    // 4- and 8-byte ones in blocks of a line's side where the processor has AVX-512 (of 16 bytes
    // otherwise), with streaming stores from 8 MiB on; edges, odd sizes and reversed rows must
    // come out right too.
    void blockTransposes_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<std::vector<int>>("perm");
        QTest::addColumn<std::vector<bool>>("flipped");
        for (DType t : {DType::Int8, DType::Bool, DType::Int16, DType::Float32, DType::Float64}) {
            const std::string name(dtypeName(t));
            auto row = [&](const std::string& what, Shape shape, std::vector<int> perm,
                           std::vector<bool> flipped) {
                QTest::newRow((name + " " + what).c_str()) << int(t) << shape << perm << flipped;
            };
            row("64x64", {64, 64}, {1, 0}, {false, false});
            row("32x32", {32, 32}, {1, 0}, {false, false});
            row("65x63", {65, 63}, {1, 0}, {false, false});
            row("130x200", {130, 200}, {1, 0}, {false, false});
            row("1x1", {1, 1}, {1, 0}, {false, false});
            row("0x70", {0, 70}, {1, 0}, {false, false});
            row("200x9", {200, 9}, {1, 0}, {false, false});
            row("rows reversed 130x200", {130, 200}, {1, 0}, {true, false});
            row("columns reversed 130x200", {130, 200}, {1, 0}, {false, true});
            row("both reversed 97x128", {97, 128}, {1, 0}, {true, true});
            row("rank 3 (0,2,1)", {3, 70, 129}, {0, 2, 1}, {false, false, false});
            row("rank 8", {2, 1, 3, 1, 2, 1, 67, 66}, {0, 1, 2, 3, 4, 5, 7, 6},
                {false, true, false, false, true, false, false, true});
            // Over 8 MiB of output: streaming stores, rows not a multiple of a line.
            row("large 4099x2051", {4099, 2051 * 2 / dtypeSize(t)}, {1, 0}, {false, false});
            // Output rows a multiple of 16 bytes long: the streaming stores themselves.
            row("large aligned 4112x2100", {4112, 2100 / dtypeSize(t)}, {1, 0}, {false, false});
            // Output rows of whole 16-byte units but not whole lines: streamed 16 bytes at a time.
            if (dtypeSize(t) >= 4)
                row("large 16-byte rows 4100x2100", {4100, 2100 / dtypeSize(t)}, {1, 0},
                    {false, false});
        }
    }

    void blockTransposes()
    {
        QFETCH(int, dtype);
        QFETCH(Shape, shape);
        QFETCH(std::vector<int>, perm);
        QFETCH(std::vector<bool>, flipped);
        checkPermuted(DType(dtype), shape, perm, flipped);
    }

    // Reversing the inner axis of 1- and 2-byte elements reverses whole registers.
    void narrowReversals_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<std::vector<bool>>("flipped");
        for (DType t : {DType::Int8, DType::Bool, DType::Int16}) {
            const std::string name(dtypeName(t));
            for (std::int64_t n : {0, 1, 7, 8, 15, 16, 17, 33, 255, 257}) {
                QTest::newRow((name + " " + std::to_string(n)).c_str())
                    << int(t) << Shape{3, n} << std::vector<bool>{false, true};
                QTest::newRow((name + " both axes " + std::to_string(n)).c_str())
                    << int(t) << Shape{3, n} << std::vector<bool>{true, true};
            }
            QTest::newRow((name + " rank 8").c_str())
                << int(t) << Shape{2, 1, 2, 3, 1, 2, 2, 45}
                << std::vector<bool>{false, true, false, true, false, false, true, true};
            // Over 8 MiB: streaming stores from each row's first 16-byte boundary on.
            QTest::newRow((name + " large").c_str())
                << int(t) << Shape{2049, 4099 * 2 / dtypeSize(t)} << std::vector<bool>{false, true};
        }
    }

    void narrowReversals()
    {
        QFETCH(int, dtype);
        QFETCH(Shape, shape);
        QFETCH(std::vector<bool>, flipped);
        std::vector<int> perm(shape.size());
        std::iota(perm.begin(), perm.end(), 0);
        checkPermuted(DType(dtype), shape, perm, flipped);
    }

    // Every |stride|-th element of each row (x[:, ::3], x[:, ::-2]): a large output of 4- and
    // 8-byte elements is written with streaming stores from each row's first 16-byte boundary
    // on (odd row lengths put the rows at every alignment), the rest element by element.
    void stridedRows_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<std::int64_t>("stride");
        QTest::addColumn<std::int64_t>("outRows");
        for (DType t :
             {DType::Float32, DType::Int32, DType::Float64, DType::Complex64, DType::Int16}) {
            for (std::int64_t stride : {2, 3, 5, -2, -3}) {
                const std::string name =
                    std::string(dtypeName(t)) + " stride " + std::to_string(stride);
                // Over 8 MiB of output (one stride of each sign per dtype: the suite runs under
                // AddressSanitizer too), and a small one that stays in the caches.
                if (stride == 3 || stride == -2)
                    QTest::newRow((name + " large").c_str())
                        << int(t) << stride << std::int64_t(1031);
                QTest::newRow((name + " small").c_str()) << int(t) << stride << std::int64_t(3);
            }
        }
    }

    void stridedRows()
    {
        QFETCH(int, dtype);
        QFETCH(std::int64_t, stride);
        QFETCH(std::int64_t, outRows);
        const std::int64_t size = dtypeSize(DType(dtype));
        const std::int64_t outCols = ((std::int64_t(17) << 19) / size / 1031) | 1;
        const std::int64_t cols = outCols * std::abs(stride) + 1;
        const Shape shape{outRows, cols};
        Permuted p;
        p.outShape = {outRows, outCols};
        p.piece.extents = p.outShape;
        p.piece.inStrides = {cols, stride};
        p.piece.outStrides = rowMajorStrides(p.outShape);
        p.piece.inOffset = stride < 0 ? cols - 1 : 1;
        checkPiece(DType(dtype), shape, p);
    }

    // Short contiguous runs read from every other position, as space_to_batch_nd by 2 moves
    // them: runs of 8 to 256 bytes are copied as fixed-size blocks, other lengths element by
    // element; into a large output (streaming stores: space_to_batch_nd reads each input row in
    // order and writes its two block columns as two streams) and a small one.
    void shortRuns_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<std::int64_t>("runBytes");
        QTest::addColumn<bool>("large");
        for (DType t : {DType::Float32, DType::Float64, DType::Complex128, DType::Int8}) {
            for (std::int64_t bytes : {16, 24, 32, 48, 64, 128, 256}) {
                if (bytes % dtypeSize(t) != 0) continue;
                const std::string name =
                    std::string(dtypeName(t)) + " " + std::to_string(bytes) + " bytes";
                if (t == DType::Float32 && bytes == 64) // space_to_batch_nd's case
                    QTest::newRow((name + " large").c_str()) << int(t) << bytes << true;
                QTest::newRow((name + " small").c_str()) << int(t) << bytes << false;
            }
        }
    }

    void shortRuns()
    {
        QFETCH(int, dtype);
        QFETCH(std::int64_t, runBytes);
        QFETCH(bool, large);
        const std::int64_t n = runBytes / dtypeSize(DType(dtype));
        constexpr std::int64_t w = 257;
        const std::int64_t rows = large ? (std::int64_t(17) << 19) / (2 * w * runBytes) + 1 : 3;
        // Input [rows, w, 2, n]; output [2, rows, w, n]: block b takes every other run.
        const Shape shape{rows, w, 2, n};
        Permuted p;
        p.outShape = {2, rows, w, n};
        p.piece.extents = p.outShape;
        p.piece.inStrides = {n, w * 2 * n, 2 * n, 1};
        p.piece.outStrides = rowMajorStrides(p.outShape);
        checkPiece(DType(dtype), shape, p);
    }

    // extract_image_patches' pattern: each output pixel is 3 runs of 3 * d elements, one from
    // each of 3 input rows. The window rows go innermost, so each pixel is written in order, and
    // a large output of 4- and 8-byte elements whose runs are whole 16-byte units is written
    // with streaming stores; other run lengths element by element or as fixed-size blocks.
    void patchRuns_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<std::int64_t>("depth");
        QTest::addColumn<bool>("large");
        for (DType t : {DType::Float32, DType::Float64, DType::Int8, DType::Complex128}) {
            for (std::int64_t depth : {8, 5, 2}) {
                const std::string name =
                    std::string(dtypeName(t)) + " depth " + std::to_string(depth);
                // Over 8 MiB of output: 96-byte runs of float32 (the benchmark's case) and
                // 48-byte runs of float64, both streamed.
                if ((t == DType::Float32 && depth == 8) || (t == DType::Float64 && depth == 2))
                    QTest::newRow((name + " large").c_str()) << int(t) << depth << true;
                QTest::newRow((name + " small").c_str()) << int(t) << depth << false;
            }
        }
    }

    void patchRuns()
    {
        QFETCH(int, dtype);
        QFETCH(std::int64_t, depth);
        QFETCH(bool, large);
        const std::int64_t pixelBytes = 9 * depth * dtypeSize(DType(dtype));
        const std::int64_t side =
            large ? std::int64_t(std::sqrt(double((std::int64_t(17) << 19) / pixelBytes))) + 3 : 7;
        // Input [side, side + 1, depth]; output [side - 2, side - 1, 3, 3 * depth].
        const std::int64_t rows = side, cols = side + 1;
        Permuted p;
        p.outShape = {rows - 2, cols - 2, 3, 3 * depth};
        p.piece.extents = p.outShape;
        p.piece.inStrides = {cols * depth, depth, cols * depth, 1};
        p.piece.outStrides = rowMajorStrides(p.outShape);
        checkPiece(DType(dtype), {rows, cols, depth}, p);
    }

    void transposeTakesTiles()
    {
        // 300 x 200 transposed: the output's inner axis reads with stride 200.
        const Tensor input = iota({300, 200});
        OutputPlan out;
        out.dtype = DType::Int32;
        out.shape = {200, 300};
        AffinePiece p;
        p.extents = {200, 300};
        p.inStrides = {1, 200};
        p.outStrides = {300, 1};
        out.pieces.push_back(p);
        const Tensor t = executePlan(planOf(out), {input}, testExecutor())[0];
        for (std::int64_t r = 0; r < 200; ++r)
            for (std::int64_t c = 0; c < 300; ++c)
                QCOMPARE(t.intAt(r * 300 + c), c * 200 + r);
    }

    void rowsWithConstants()
    {
        const Tensor input = iota({4, 3});
        OutputPlan out;
        out.dtype = DType::Int32;
        out.shape = {3, 3};
        const std::int64_t k = out.addConstant(Tensor::scalar(DType::Int32, 9));
        RowsPiece rows;
        rows.rowLength = 3;
        rows.rows = {packSource(0, 9), packSource(kConstantSlot, k), packSource(0, 0)};
        out.pieces.push_back(rows);
        const OpPlan plan = planOf(out);
        const Tensor t = executePlan(plan, {input}, testExecutor())[0];
        QCOMPARE(values(t), (std::vector<std::int64_t>{9, 10, 11, 9, 9, 9, 0, 1, 2}));
        const auto src = planSources(plan, 0, testExecutor());
        QCOMPARE(src[0], packSource(0, 9));
        QCOMPARE(src[4], kNoSource);
        QCOMPARE(src[8], packSource(0, 2));
    }

    void laterPieceOverwrites()
    {
        OutputPlan out;
        out.dtype = DType::Float64;
        out.shape = {4};
        const std::int64_t zero = out.addConstant(Tensor::scalar(DType::Float64, 0.0));
        out.pieces.push_back(OutputPlan::fillPiece(zero, {4}));
        AffinePiece p;
        p.outOffset = 1;
        p.extents = {2};
        p.inStrides = {1};
        p.outStrides = {2};
        out.pieces.push_back(p);
        const OpPlan plan = planOf(out);
        const Tensor input = iota({2}, 5, DType::Float64);
        const Tensor t = executePlan(plan, {input}, testExecutor())[0];
        QCOMPARE(values(t), (std::vector<std::int64_t>{0, 5, 0, 6}));
        const auto src = planSources(plan, 0, testExecutor());
        QCOMPARE(src, (SourceList{kNoSource, packSource(0, 0), kNoSource, packSource(0, 1)}));
    }

    void unwrittenElementsAreReported_data()
    {
        QTest::addColumn<std::int64_t>("size");
        QTest::addColumn<std::int64_t>("hole");
        QTest::addColumn<bool>("overlap");
        QTest::newRow("last of 3") << std::int64_t(3) << std::int64_t(2) << false;
        QTest::newRow("first of 3") << std::int64_t(3) << std::int64_t(0) << false;
        // Past the check's chunk size, so that the hole is found by another chunk than the first.
        QTest::newRow("middle of 3M")
            << std::int64_t(3'000'000) << std::int64_t(2'500'001) << false;
        // As many elements written as the output has, one of them twice: a count would miss it.
        QTest::newRow("overlap hides a hole") << std::int64_t(5) << std::int64_t(4) << true;
    }

    void unwrittenElementsAreReported()
    {
        QFETCH(std::int64_t, size);
        QFETCH(std::int64_t, hole);
        QFETCH(bool, overlap);
        OutputPlan out;
        out.dtype = DType::Int32;
        out.shape = {size};
        auto range = [](std::int64_t begin, std::int64_t end) {
            AffinePiece p;
            p.inOffset = begin;
            p.outOffset = begin;
            p.extents = {end - begin};
            p.inStrides = {1};
            p.outStrides = {1};
            return p;
        };
        out.pieces.push_back(range(0, hole));
        out.pieces.push_back(range(hole + 1, size));
        if (overlap) out.pieces.push_back(range(0, 1));
        try {
            planSources(planOf(out), 0, testExecutor());
            QFAIL("no error");
        } catch (const OpError& e) {
            QCOMPARE(e.code(), ErrorCode::Internal);
            QCOMPARE(std::string(e.what()),
                     "left element " + std::to_string(hole) + " of output 0 unwritten");
        }
    }

    void cancellationStopsALargeCopy()
    {
        Executor ex(2);
        const Tensor input = iota({4096, 1024});
        OutputPlan out;
        out.dtype = DType::Int32;
        out.shape = {1024, 4096};
        AffinePiece p;
        p.extents = {1024, 4096};
        p.inStrides = {1, 1024};
        p.outStrides = {4096, 1};
        out.pieces.push_back(p);
        const OpPlan plan = planOf(out);
        JobContext ctx;
        ctx.cancel();
        SS_EXPECT_ERROR(executePlan(plan, {input}, ex, &ctx), ErrorCode::Cancelled, "cancelled");
    }

    // An output that is a whole input in its own order shares the input's buffer: x[...], a
    // transpose by the identity, a tile by ones, a pad by zeros, a reverse of no axes, a concat
    // or stack of one input, a reshape. Anything else that reads it differently is a copy.
    void identityPlansShareTheInput_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<Attrs>("attrs");
        QTest::addColumn<bool>("shared");
        QTest::newRow("x[...]") << "getitem" << Attrs{{"expr", Attr("x[...]")}} << true;
        QTest::newRow("x[:, None]") << "getitem" << Attrs{{"expr", Attr("x[:, None]")}} << true;
        QTest::newRow("x[::-1]") << "getitem" << Attrs{{"expr", Attr("x[::-1]")}} << false;
        QTest::newRow("x[1:]") << "getitem" << Attrs{{"expr", Attr("x[1:]")}} << false;
        QTest::newRow("transpose [0, 1]")
            << "transpose" << Attrs{{"perm", Attr::ints({0, 1})}} << true;
        QTest::newRow("transpose [1, 0]")
            << "transpose" << Attrs{{"perm", Attr::ints({1, 0})}} << false;
        QTest::newRow("tile [1, 1]") << "tile" << Attrs{{"multiples", Attr::ints({1, 1})}} << true;
        QTest::newRow("tile [1, 2]") << "tile" << Attrs{{"multiples", Attr::ints({1, 2})}} << false;
        Attr::List zeros{Attr(Attr::List{Attr(0), Attr(0)}), Attr(Attr::List{Attr(0), Attr(0)})};
        QTest::newRow("pad by zeros") << "pad" << Attrs{{"paddings", Attr(zeros)}} << true;
        QTest::newRow("mirror pad by zeros")
            << "pad" << Attrs{{"paddings", Attr(zeros)}, {"mode", Attr("REFLECT")}} << true;
        QTest::newRow("reverse of no axes") << "reverse" << Attrs{{"axis", Attr::ints({})}} << true;
        QTest::newRow("reverse [0]") << "reverse" << Attrs{{"axis", Attr::ints({0})}} << false;
        QTest::newRow("concat of one") << "concat" << Attrs{{"axis", Attr(0)}} << true;
        QTest::newRow("stack of one") << "stack" << Attrs{{"axis", Attr(1)}} << true;
    }

    void identityPlansShareTheInput()
    {
        QFETCH(QString, op);
        QFETCH(Attrs, attrs);
        QFETCH(bool, shared);
        const Tensor x = iota({3, 4});
        const OpRun run = runOp(op.toStdString(), {{x}}, attrs);
        const Tensor& out = run.outputs.at(0);
        QCOMPARE(out.raw() == x.raw(), shared);
        // Shared or copied, the values are the plan's (runOp checked them against the sources).
        if (shared) QCOMPARE(values(out), values(x));
    }

    // TensorFlow's strings are bytes whichever kind NumPy's file had; the outputs say the kind of
    // the op's first string input, as NumPy's slices, take and pad keep their array's, and the
    // longest of their string inputs' lengths ('|S5' and '|S8' concatenate to '|S8').
    void stringOutputsKeepTheirInputsKind_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<Attrs>("attrs");
        QTest::addColumn<bool>("firstBytes");
        QTest::addColumn<bool>("secondBytes");
        QTest::addColumn<bool>("bytes");
        const Attrs reverse{{"expr", Attr("x[::-1]")}};
        QTest::newRow("bytes x[::-1]") << "getitem" << reverse << true << false << true;
        QTest::newRow("text x[::-1]") << "getitem" << reverse << false << false << false;
        QTest::newRow("bytes x[...] (shared)")
            << "getitem" << Attrs{{"expr", Attr("x[...]")}} << true << false << true;
        QTest::newRow("bytes unique_with_counts")
            << "unique_with_counts" << Attrs{} << true << false << true;
        const Attrs axis{{"axis", Attr(0)}};
        QTest::newRow("concat bytes, text") << "concat" << axis << true << false << true;
        QTest::newRow("concat text, bytes") << "concat" << axis << false << true << false;
    }

    void stringOutputsKeepTheirInputsKind()
    {
        QFETCH(QString, op);
        QFETCH(Attrs, attrs);
        QFETCH(bool, firstBytes);
        QFETCH(bool, secondBytes);
        QFETCH(bool, bytes);
        const auto strings = [](bool holdsBytes, std::int64_t itemLength) {
            Tensor t = Tensor::empty(DType::String, {3});
            for (std::int64_t i = 0; i < 3; ++i)
                t.data<std::string>()[i] = "s" + std::to_string(i % 2);
            t.setHoldsBytes(holdsBytes);
            t.setItemLength(itemLength);
            return t;
        };
        const bool joins = op == "concat";
        const OpRun run = runOp(op.toStdString(),
                                joins ? std::vector<std::vector<Tensor>>{{strings(firstBytes, 5),
                                                                          strings(secondBytes, 8)}}
                                      : std::vector<std::vector<Tensor>>{{strings(firstBytes, 5)}},
                                attrs);
        QVERIFY(!run.outputs.empty());
        QCOMPARE(run.outputs.front().dtype(), DType::String);
        QCOMPARE(run.outputs.front().holdsBytes(), bytes);
        QCOMPARE(run.outputs.front().itemLength(), joins ? 8 : 5);
    }
};

QTEST_APPLESS_MAIN(TestCopyEngine)
#include "tst_copy_engine.moc"
