// SPDX-License-Identifier: GPL-3.0-or-later
// The index-driven ops at sizes where the copy engine reads the index tensor in parallel chunks
// (IndexPiece) and the planner checks index ranges in parallel, and unique's flat table: every
// output and every source against a plain serial reference, with odd sizes, every index dtype,
// rank 8, one element and none; errors must name the first bad index, as TensorFlow's do.
#include "op_runner.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <random>

using namespace ss;
using namespace ss::testing;

namespace {

// Index values drawn uniformly from [0, bound), in `dtype`.
Tensor randomIndices(DType dtype, const Shape& shape, std::int64_t bound, unsigned seed)
{
    std::mt19937_64 rng(seed);
    Tensor t = Tensor::empty(dtype, shape);
    for (std::int64_t i = 0; i < t.size(); ++i)
        t.setFromInt(i, std::int64_t(rng() % std::uint64_t(bound)));
    return t;
}

// Distinct float32 values, so that a wrongly copied element changes the result.
Tensor floats(const Shape& shape)
{
    Tensor t = Tensor::empty(DType::Float32, shape);
    for (std::int64_t i = 0; i < t.size(); ++i)
        t.data<std::uint32_t>()[i] = std::uint32_t(i) * 2654435761u + 1;
    return t;
}

std::int64_t product(const Shape& s, std::size_t from, std::size_t to)
{
    std::int64_t n = 1;
    for (std::size_t k = from; k < to; ++k)
        n *= s[k];
    return n;
}

std::string stepText(const OpPlan& plan)
{
    std::string text;
    for (const Step& s : plan.steps)
        text += s.title + ": " + s.detail + "\n";
    return text;
}

} // namespace

class TestIndexPieces : public QObject
{
    Q_OBJECT
private slots:
    void gather_data()
    {
        QTest::addColumn<QByteArray>("dtype");
        QTest::addColumn<QList<qint64>>("params");
        QTest::addColumn<QList<qint64>>("indices");
        QTest::addColumn<int>("axis");
        QTest::addColumn<int>("batchDims");
        QTest::addColumn<bool>("sequential");
        QTest::newRow("int32 scalars, random, odd size")
            << QByteArray("int32") << QList<qint64>{70001} << QList<qint64>{200003} << 0 << 0
            << false;
        QTest::newRow("int32 scalars, sequential") << QByteArray("int32") << QList<qint64>{150001}
                                                   << QList<qint64>{150001} << 0 << 0 << true;
        QTest::newRow("int64 rows of 3") << QByteArray("int64") << QList<qint64>{5001, 3}
                                         << QList<qint64>{100003} << 0 << 0 << false;
        QTest::newRow("int16, middle axis") << QByteArray("int16") << QList<qint64>{3, 30011, 2}
                                            << QList<qint64>{70001} << 1 << 0 << false;
        QTest::newRow("batch_dims 1, axis 2") << QByteArray("int32") << QList<qint64>{3, 4, 1000, 1}
                                              << QList<qint64>{3, 30001} << 2 << 1 << false;
        QTest::newRow("index matrix, last axis") << QByteArray("int64") << QList<qint64>{7, 13}
                                                 << QList<qint64>{301, 333} << 1 << 0 << false;
        QTest::newRow("rank 8, batch_dims 2")
            << QByteArray("int32") << QList<qint64>{2, 3, 1, 2, 5, 1, 7, 3}
            << QList<qint64>{2, 3, 11} << 6 << 2 << false;
        QTest::newRow("one element")
            << QByteArray("int32") << QList<qint64>{1} << QList<qint64>{1} << 0 << 0 << false;
        QTest::newRow("no index") << QByteArray("int32") << QList<qint64>{5} << QList<qint64>{0}
                                  << 0 << 0 << false;
    }

    // output[b, p, q, s] = params[b, p, indices[b, q], s], element by element.
    void gather()
    {
        QFETCH(QByteArray, dtype);
        QFETCH(QList<qint64>, params);
        QFETCH(QList<qint64>, indices);
        QFETCH(int, axis);
        QFETCH(int, batchDims);
        QFETCH(bool, sequential);
        const Shape ps(params.begin(), params.end());
        const Shape is(indices.begin(), indices.end());
        const auto ax = std::size_t(axis);
        const auto b = std::size_t(batchDims);
        const std::int64_t size = ps[ax];
        Tensor idx = sequential ? iota(is, 0, *dtypeFromName(dtype.toStdString()))
                                : randomIndices(*dtypeFromName(dtype.toStdString()), is, size,
                                                unsigned(params.size() * 7 + indices.front()));
        const OpRun run = runOp("gather", {{floats(ps)}, {idx}},
                                {{"axis", Attr(axis)}, {"batch_dims", Attr(batchDims)}});
        const std::int64_t batch = product(ps, 0, b);
        const std::int64_t outer = product(ps, b, ax);
        const std::int64_t inner = product(ps, ax + 1, ps.size());
        const std::int64_t perBatch = batch ? idx.size() / batch : 0;
        std::vector<std::int64_t> expect;
        for (std::int64_t bb = 0; bb < batch; ++bb)
            for (std::int64_t o = 0; o < outer; ++o)
                for (std::int64_t j = 0; j < perBatch; ++j)
                    for (std::int64_t k = 0; k < inner; ++k)
                        expect.push_back(packSource(
                            0,
                            ((bb * outer + o) * size + idx.intAt(bb * perBatch + j)) * inner + k));
        QCOMPARE(run.outputs[0].size(), std::int64_t(expect.size()));
        QVERIFY(std::ranges::equal(run.sources[0], expect));
    }

    // A gather of scalars into more than 8 MiB: the copy engine streams the output 16 bytes at
    // a time and reads a register's worth of consecutive indices as one run. Runs of every
    // length start at every alignment, broken by jumps, repeats and descents; the groups of an
    // inner axis and the two workers' chunks start at unaligned output elements.
    void largeScalarGather_data()
    {
        QTest::addColumn<int>("paramsDtype");
        QTest::addColumn<int>("indexDtype");
        QTest::addColumn<QList<qint64>>("params");
        QTest::addColumn<qint64>("count");
        QTest::addColumn<int>("axis");
        const auto row = [](DType p, DType i, QList<qint64> params, qint64 count, int axis) {
            const std::string name = std::string(dtypeName(p)) + " by " +
                                     std::string(dtypeName(i)) + (axis ? " along axis 1" : "");
            QTest::newRow(name.c_str()) << int(p) << int(i) << params << count << axis;
        };
        row(DType::Float32, DType::Int32, {2500007}, 2300003, 0);
        row(DType::Float32, DType::Int16, {30011}, 2200001, 0);
        row(DType::Float32, DType::Int64, {3, 400009}, 900001, 1);
        row(DType::Float64, DType::Int32, {1300003}, 1200007, 0);
        row(DType::Complex64, DType::Int64, {5, 300007}, 230003, 1);
    }

    void largeScalarGather()
    {
        QFETCH(int, paramsDtype);
        QFETCH(int, indexDtype);
        QFETCH(QList<qint64>, params);
        QFETCH(qint64, count);
        QFETCH(int, axis);
        const Shape ps(params.begin(), params.end());
        const std::int64_t size = ps.back();
        std::mt19937_64 rng{std::uint64_t(count)};
        Tensor idx = Tensor::empty(DType(indexDtype), {count});
        for (std::int64_t k = 0; k < count;) {
            const std::int64_t length = std::int64_t(rng() % 40) + 1;
            const std::int64_t first = std::int64_t(rng() % std::uint64_t(size - length));
            const std::int64_t step = std::array<std::int64_t, 4>{1, 1, 0, -1}[rng() % 4];
            for (std::int64_t m = 0; m < length && k < count; ++m, ++k)
                idx.setFromInt(k, step < 0 ? first + length - 1 - m : first + m * step);
        }
        Tensor x = Tensor::empty(DType(paramsDtype), ps);
        auto* bytes = static_cast<std::uint8_t*>(x.raw());
        for (std::int64_t b = 0; b < x.size() * dtypeSize(x.dtype()); ++b)
            bytes[b] = std::uint8_t((b * 2654435761u) >> 13);
        const OpRun run = runOp("gather", {{x}, {idx}}, {{"axis", Attr(axis)}});
        const std::int64_t groups = axis ? ps[0] : 1;
        QCOMPARE(run.outputs[0].size(), groups * count);
        for (std::int64_t g = 0; g < groups; ++g)
            for (std::int64_t k = 0; k < count; ++k)
                if (run.sources[0][std::size_t(g * count + k)] != g * size + idx.intAt(k))
                    QFAIL(("output element " + std::to_string(g * count + k)).c_str());
    }

    // The check runs in parallel chunks, yet names the first bad index, as a serial scan would.
    void gatherNamesFirstBadIndex()
    {
        Tensor idx = randomIndices(DType::Int32, {200001}, 5000, 3);
        idx.setFromInt(190000, 5000);
        idx.setFromInt(150001, -1);
        SS_EXPECT_ERROR(runOp("gather", {{floats({5000})}, {idx}}), ErrorCode::OutOfRange,
                        "indices[150001] = -1 is not in [0, 5000)");
        Tensor last = randomIndices(DType::Int64, {300, 400}, 5000, 4);
        last.setFromInt(last.size() - 1, 5000);
        SS_EXPECT_ERROR(runOp("gather", {{floats({5000})}, {last}}), ErrorCode::OutOfRange,
                        "indices[299,399] = 5000 is not in [0, 5000)");
    }

    void gatherNd()
    {
        const Shape ps{50, 61, 7};
        Tensor idx = Tensor::empty(DType::Int64, {100003, 2});
        std::mt19937 rng(5);
        for (std::int64_t t = 0; t < 100003; ++t) {
            idx.setFromInt(2 * t, rng() % 50);
            idx.setFromInt(2 * t + 1, rng() % 61);
        }
        const OpRun run = runOp("gather_nd", {{floats(ps)}, {idx}});
        std::vector<std::int64_t> expect;
        for (std::int64_t t = 0; t < 100003; ++t)
            for (std::int64_t k = 0; k < 7; ++k)
                expect.push_back((idx.intAt(2 * t) * 61 + idx.intAt(2 * t + 1)) * 7 + k);
        QVERIFY(std::ranges::equal(run.sources[0], expect));

        // batch_dims 1: tuple t of batch entry e reads params[e, tuple].
        Tensor batched = randomIndices(DType::Int32, {4, 30001, 1}, 50, 6);
        const OpRun b = runOp("gather_nd", {{floats({4, 50, 3})}, {batched}}, {{"batch_dims", 1}});
        expect.clear();
        for (std::int64_t e = 0; e < 4; ++e)
            for (std::int64_t t = 0; t < 30001; ++t)
                for (std::int64_t k = 0; k < 3; ++k)
                    expect.push_back((e * 50 + batched.intAt(e * 30001 + t)) * 3 + k);
        QVERIFY(std::ranges::equal(b.sources[0], expect));

        // An empty tuple picks the whole of params.
        const OpRun whole = runOp("gather_nd", {{floats({2, 3})}, {iota({3, 0})}});
        QCOMPARE(whole.outputs[0].shape(), (Shape{3, 2, 3}));
        for (std::int64_t i = 0; i < 18; ++i)
            QCOMPARE(whole.sources[0][std::size_t(i)], i % 6);

        idx.setFromInt(2 * 90000 + 1, 61);
        idx.setFromInt(2 * 80001, -3);
        SS_EXPECT_ERROR(runOp("gather_nd", {{floats(ps)}, {idx}}), ErrorCode::OutOfRange,
                        "indices[80001] = [-3, " + std::to_string(idx.intAt(2 * 80001 + 1)) +
                            "] does not index into param shape [50,61,7]");
    }

    void stitch_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("rowLength");
        QTest::addColumn<bool>("permutation");
        QTest::newRow("permutation, scalars") << qint64(250003) << qint64(1) << true;
        QTest::newRow("permutation, rows of 3") << qint64(100003) << qint64(3) << true;
        QTest::newRow("duplicates and gaps, scalars") << qint64(250003) << qint64(1) << false;
        QTest::newRow("duplicates and gaps, rows of 2") << qint64(100003) << qint64(2) << false;
        QTest::newRow("one row") << qint64(1) << qint64(1) << true;
    }

    // merged[indices[m][i]] = data[m][i] in order of m, then i: the last writer wins; rows no
    // index names are zero.
    void stitch()
    {
        QFETCH(qint64, rows);
        QFETCH(qint64, rowLength);
        QFETCH(bool, permutation);
        std::vector<std::int64_t> order(std::size_t(rows), 0);
        std::mt19937_64 rng(std::uint64_t(rows) + std::uint64_t(rowLength));
        for (std::int64_t i = 0; i < rows; ++i)
            order[std::size_t(i)] = permutation ? i : std::int64_t(rng() % std::uint64_t(rows));
        if (permutation) std::shuffle(order.begin(), order.end(), rng);
        // Two index tensors (the second may be empty), the second a matrix.
        const std::int64_t split = rows * 3 / 5;
        const std::int64_t second = rows - split;
        const Tensor i0 = i32({split}, {order.begin(), order.begin() + split});
        const Tensor i1 = i32({second > 1 ? 1 : second, second > 1 ? second : 1},
                              {order.begin() + split, order.end()});
        const Tensor d0 = floats({split, rowLength});
        const Tensor d1 = floats({i1.shape()[0], i1.shape()[1], rowLength});
        const OpRun run = runOp("dynamic_stitch", {{i0, i1}, {d0, d1}});

        std::int64_t first = 0;
        for (std::int64_t v : order)
            first = std::max(first, v + 1);
        std::vector<std::int64_t> winner(std::size_t(first), kNoSource);
        std::int64_t overwritten = 0;
        for (std::int64_t i = 0; i < rows; ++i) {
            std::int64_t& w = winner[std::size_t(order[std::size_t(i)])];
            overwritten += w != kNoSource;
            w = i < split ? packSource(2, i * rowLength) : packSource(3, (i - split) * rowLength);
        }
        std::vector<std::int64_t> expect;
        std::int64_t unnamed = 0;
        for (std::int64_t w : winner) {
            unnamed += w == kNoSource;
            for (std::int64_t k = 0; k < rowLength; ++k)
                expect.push_back(w == kNoSource ? kNoSource : w + k);
        }
        QVERIFY(std::ranges::equal(run.sources[0], expect));
        for (std::size_t e = 0; e < expect.size(); ++e)
            if (expect[e] == kNoSource) QCOMPARE(run.outputs[0].data<std::uint32_t>()[e], 0u);
        const std::string steps = stepText(run.plan);
        QVERIFY2(steps.find("(" + std::to_string(overwritten) +
                            (overwritten == 1 ? " row" : " rows") + " overwritten here)") !=
                     std::string::npos,
                 steps.c_str());
        QCOMPARE(steps.find("named by no index") != std::string::npos, unnamed > 0);
        if (unnamed > 0)
            QVERIFY2(steps.find(std::to_string(unnamed) +
                                (unnamed == 1 ? " row is" : " rows are")) != std::string::npos,
                     steps.c_str());
    }

    void stitchNamesFirstNegativeIndex()
    {
        Tensor i0 = iota({100000});
        Tensor i1 = iota({200000});
        i1.setFromInt(170000, -2);
        i1.setFromInt(120000, -1);
        SS_EXPECT_ERROR(runOp("dynamic_stitch", {{i0, i1}, {floats({100000}), floats({200000})}}),
                        ErrorCode::OutOfRange, "indices[120000] is out of range");
    }

    void unique_data()
    {
        QTest::addColumn<QByteArray>("dtype");
        QTest::addColumn<qint64>("size");
        QTest::addColumn<qint64>("distinct");
        QTest::addColumn<QByteArray>("outIdx");
        QTest::newRow("float32 with NaN and signed zeros")
            << QByteArray("float32") << qint64(200003) << qint64(5000) << QByteArray("int32");
        QTest::newRow("float64 all distinct")
            << QByteArray("float64") << qint64(100003) << qint64(0) << QByteArray("int64");
        QTest::newRow("int64 keys apart in the high bits")
            << QByteArray("int64") << qint64(100003) << qint64(3000) << QByteArray("int32");
        QTest::newRow("int8") << QByteArray("int8") << qint64(10007) << qint64(256)
                              << QByteArray("int64");
        QTest::newRow("uint8") << QByteArray("uint8") << qint64(777) << qint64(256)
                               << QByteArray("int32");
        QTest::newRow("bool") << QByteArray("bool") << qint64(1001) << qint64(2)
                              << QByteArray("int32");
        QTest::newRow("string") << QByteArray("string") << qint64(20011) << qint64(900)
                                << QByteArray("int32");
        QTest::newRow("one element")
            << QByteArray("int32") << qint64(1) << qint64(1) << QByteArray("int32");
        QTest::newRow("empty") << QByteArray("float32") << qint64(0) << qint64(1)
                               << QByteArray("int32");
    }

    // y in order of first occurrence (each copied from its first occurrence), idx and count,
    // against an ordered map; equality is C++ == (each NaN its own value, -0.0 == +0.0).
    void unique()
    {
        QFETCH(QByteArray, dtype);
        QFETCH(qint64, size);
        QFETCH(qint64, distinct);
        QFETCH(QByteArray, outIdx);
        const DType t = *dtypeFromName(dtype.toStdString());
        std::mt19937_64 rng(static_cast<std::uint64_t>(size));
        Tensor x = Tensor::empty(t, {size});
        // The reference key of each element: NaNs get keys of their own.
        std::vector<std::string> keys;
        for (std::int64_t i = 0; i < size; ++i) {
            const std::uint64_t r = distinct ? rng() % std::uint64_t(distinct) : std::uint64_t(i);
            if (t == DType::String) {
                x.data<std::string>()[i] = "s" + std::to_string(r * 7919);
                keys.push_back(x.data<std::string>()[i]);
            } else if (t == DType::Float32 || t == DType::Float64) {
                double v = double(r) * 0.5 - 1000;
                if (r % 97 == 5) v = std::numeric_limits<double>::quiet_NaN();
                if (r % 89 == 7) v = i % 2 ? -0.0 : 0.0;
                x.setFromDouble(i, v);
                const double back = x.doubleAt(i);
                keys.push_back(back != back ? "nan" + std::to_string(i)
                                            : std::to_string(back == 0 ? 0.0 : back));
            } else if (t == DType::Int64) {
                x.setFromInt(i, std::int64_t(r << 40) - std::int64_t(r));
                keys.push_back(std::to_string(x.intAt(i)));
            } else {
                x.setFromInt(i, std::int64_t(r) - (t == DType::Int8 ? 128 : 0));
                keys.push_back(std::to_string(x.intAt(i)));
            }
        }
        const OpRun run =
            runOp("unique_with_counts", {{x}}, {{"out_idx", Attr(outIdx.toStdString())}});
        std::map<std::string, std::int64_t> id;
        std::vector<std::int64_t> firstAt, idx, count;
        for (std::int64_t i = 0; i < size; ++i) {
            const auto [it, inserted] =
                id.try_emplace(keys[std::size_t(i)], std::int64_t(firstAt.size()));
            if (inserted) {
                firstAt.push_back(i);
                count.push_back(0);
            }
            idx.push_back(it->second);
            ++count[std::size_t(it->second)];
        }
        QVERIFY(std::ranges::equal(run.sources[0], firstAt));
        QCOMPARE(std::string(dtypeName(run.outputs[1].dtype())), outIdx.toStdString());
        QVERIFY(values(run.outputs[1]) == idx);
        QVERIFY(values(run.outputs[2]) == count);
    }

    // When the distinct values come first, y is x[:distinct]: one block of x, with no row
    // numbers, and all of x (shared, not copied) when every value is distinct.
    void uniqueOfDistinctValuesFirstIsAPrefix()
    {
        const OpRun some = runOp("unique_with_counts", {{i32({7}, {5, 3, 9, 1, 3, 5, 9})}});
        QVERIFY(std::holds_alternative<AffinePiece>(some.plan.outputs[0].pieces.front()));
        QVERIFY(values(some.outputs[0]) == (std::vector<std::int64_t>{5, 3, 9, 1}));
        QVERIFY(std::ranges::equal(some.sources[0], std::vector<std::int64_t>{0, 1, 2, 3}));
        QVERIFY(values(some.outputs[1]) == (std::vector<std::int64_t>{0, 1, 2, 3, 1, 0, 2}));
        QVERIFY(values(some.outputs[2]) == (std::vector<std::int64_t>{2, 2, 2, 1}));
        const Tensor x = floats({100003});
        const OpRun all = runOp("unique_with_counts", {{x}});
        QCOMPARE(all.outputs[0].raw(), x.raw());
        // A repeat before the last distinct value: its rows are numbered.
        const OpRun late = runOp("unique_with_counts", {{i32({4}, {5, 5, 3, 1})}});
        QVERIFY(std::holds_alternative<IndexPiece>(late.plan.outputs[0].pieces.front()));
        QVERIFY(std::ranges::equal(late.sources[0], std::vector<std::int64_t>{0, 2, 3}));
    }

    // A mask whose true entries are one run picks a slice: one affine block of the tensor, with
    // no row numbers, and the tensor itself (shared, not copied) when every entry is true.
    void oneRunMaskIsASlice()
    {
        const Tensor t = floats({2, 10, 3});
        std::vector<std::int64_t> bits(10, 0);
        std::fill(bits.begin() + 3, bits.begin() + 7, 1);
        const OpRun run = runOp("boolean_mask", {{t}, {ints(DType::Bool, {10}, bits)}},
                                {{"axis", Attr(std::int64_t(1))}});
        QVERIFY(std::holds_alternative<AffinePiece>(run.plan.outputs[0].pieces.front()));
        QCOMPARE(run.outputs[0].shape(), (Shape{2, 4, 3}));
        std::vector<std::int64_t> picked;
        for (std::int64_t g = 0; g < 2; ++g)
            for (std::int64_t j = 3; j < 7; ++j)
                for (std::int64_t k = 0; k < 3; ++k)
                    picked.push_back(g * 30 + j * 3 + k);
        QVERIFY(std::ranges::equal(run.sources[0], picked));
        for (std::size_t e = 0; e < picked.size(); ++e)
            QCOMPARE(run.outputs[0].data<std::uint32_t>()[e], t.data<std::uint32_t>()[picked[e]]);
        const OpRun all = runOp(
            "boolean_mask", {{t}, {ints(DType::Bool, {2, 10}, std::vector<std::int64_t>(20, 1))}});
        QCOMPARE(all.outputs[0].raw(), t.raw());
        // Two runs: the rows are numbered.
        bits[8] = 1;
        const OpRun two = runOp("boolean_mask", {{t}, {ints(DType::Bool, {10}, bits)}},
                                {{"axis", Attr(std::int64_t(1))}});
        QVERIFY(std::holds_alternative<IndexPiece>(two.plan.outputs[0].pieces.front()));
    }
};

QTEST_APPLESS_MAIN(TestIndexPieces)
#include "tst_index_pieces.moc"
