// SPDX-License-Identifier: GPL-3.0-or-later
// The copy engine against a naive reference: random affine pieces (any stride signs, zero
// strides, transposes that take the tiled path), row pieces with constants, every element
// width and strings, and cancellation.
#include "op_runner.h"

#include <QTest>

#include <random>

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
};

QTEST_APPLESS_MAIN(TestCopyEngine)
#include "tst_copy_engine.moc"
