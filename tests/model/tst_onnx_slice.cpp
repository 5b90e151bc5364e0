// SPDX-License-Identifier: GPL-3.0-or-later
// The onnx_slice op against the cases of ONNX's own Slice node tests (onnx/backend/test/case/
// node/slice.py, whose files libonnx-testdata ships and tests/model/onnx_testdata_sweep.py runs
// end to end) and the spec's clamping at the edges: every row says per axis which indices are
// read as a Python range (start, stop, step), an independent statement of the expected reading.
#include "../engine/op_runner.h"

#include <QTest>

#include <array>
#include <limits>
#include <optional>

using namespace ss;
using namespace ss::testing;

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

using Ints = std::vector<std::int64_t>;
// Per input axis: the indices read, as range(start, stop, step).
using Ranges = std::vector<std::array<std::int64_t, 3>>;

Ints rangeOf(const std::array<std::int64_t, 3>& r)
{
    Ints v;
    for (std::int64_t i = r[0]; r[2] > 0 ? i < r[1] : i > r[1]; i += r[2])
        v.push_back(i);
    return v;
}

// The elements of arange(shape) at the cartesian product of the per-axis index lists.
std::pair<Shape, Ints> expectedSlice(const Shape& shape, const Ranges& ranges)
{
    std::vector<Ints> picks;
    Shape out;
    for (const auto& r : ranges) {
        picks.push_back(rangeOf(r));
        out.push_back(std::int64_t(picks.back().size()));
    }
    Ints values;
    const std::int64_t n = numElements(out);
    for (std::int64_t p = 0; p < n; ++p) {
        const auto c = unravelIndex(p, out);
        Ints at;
        for (std::size_t k = 0; k < c.size(); ++k)
            at.push_back(picks[k][std::size_t(c[k])]);
        values.push_back(ravelIndex(at, shape));
    }
    return {out, values};
}

} // namespace

Q_DECLARE_METATYPE(ss::Shape)
Q_DECLARE_METATYPE(ss::Attrs)
Q_DECLARE_METATYPE(Ranges)

class TestOnnxSlice : public QObject
{
    Q_OBJECT

private slots:
    void reads_data();
    void reads();
    void refuses_data();
    void refuses();
    void example();
};

void TestOnnxSlice::reads_data()
{
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<Attrs>("attrs");
    QTest::addColumn<Ranges>("ranges");

    auto attrs = [](Ints starts, Ints ends, std::optional<Ints> axes, std::optional<Ints> steps,
                    std::int64_t opset = 13) {
        Attrs a{{"starts", Attr::ints(starts)}, {"ends", Attr::ints(ends)}};
        if (axes) a["axes"] = Attr::ints(*axes);
        if (steps) a["steps"] = Attr::ints(*steps);
        if (opset != 13) a["opset"] = Attr(opset);
        return a;
    };
    const Shape x{20, 10, 5};
    // ONNX's node tests (test_slice*), on its input of shape (20, 10, 5).
    QTest::newRow("test_slice") << x << attrs({0, 0}, {3, 10}, Ints{0, 1}, Ints{1, 1})
                                << Ranges{{0, 3, 1}, {0, 10, 1}, {0, 5, 1}};
    QTest::newRow("test_slice_neg")
        << x << attrs({0}, {-1}, Ints{1}, Ints{1}) << Ranges{{0, 20, 1}, {0, 9, 1}, {0, 5, 1}};
    QTest::newRow("test_slice_start_out_of_bounds")
        << x << attrs({1000}, {1000}, Ints{1}, Ints{1}) << Ranges{{0, 20, 1}, {0, 0, 1}, {0, 5, 1}};
    QTest::newRow("test_slice_end_out_of_bounds")
        << x << attrs({1}, {1000}, Ints{1}, Ints{1}) << Ranges{{0, 20, 1}, {1, 10, 1}, {0, 5, 1}};
    QTest::newRow("test_slice_default_axes")
        << x << attrs({0, 0, 3}, {20, 10, 4}, std::nullopt, std::nullopt)
        << Ranges{{0, 20, 1}, {0, 10, 1}, {3, 4, 1}};
    QTest::newRow("test_slice_default_steps")
        << x << attrs({0, 0, 3}, {20, 10, 4}, Ints{0, 1, 2}, std::nullopt)
        << Ranges{{0, 20, 1}, {0, 10, 1}, {3, 4, 1}};
    // Start 20 is clamped to 19 for a negative step.
    QTest::newRow("test_slice_neg_steps")
        << x << attrs({20, 10, 4}, {0, 0, 1}, Ints{0, 1, 2}, Ints{-1, -3, -2})
        << Ranges{{19, 0, -1}, {9, 0, -3}, {4, 1, -2}};
    QTest::newRow("test_slice_negative_axes")
        << x << attrs({0, 0, 3}, {20, 10, 4}, Ints{0, -2, -1}, std::nullopt)
        << Ranges{{0, 20, 1}, {0, 10, 1}, {3, 4, 1}};
    // The spec's clamping at the edges.
    QTest::newRow("INT64_MIN end, step -1: through index 0")
        << Shape{5} << attrs({-1}, {kMin}, std::nullopt, Ints{-1}) << Ranges{{4, -1, -1}};
    QTest::newRow("INT64_MAX end, step -1: clamped to 4, nothing after start 3")
        << Shape{5} << attrs({3}, {kMax}, std::nullopt, Ints{-1}) << Ranges{{3, 3, -1}};
    QTest::newRow("INT_MAX end, step -1: clamped too")
        << Shape{5} << attrs({4}, {kInt32Max}, std::nullopt, Ints{-1}) << Ranges{{4, 4, -1}};
    QTest::newRow("start before 0, step -1: clamped up to 0, element 0 read")
        << Shape{5} << attrs({-10}, {kMin}, std::nullopt, Ints{-1}) << Ranges{{0, -1, -1}};
    QTest::newRow("start INT64_MAX, step -1: from the last")
        << Shape{5} << attrs({kMax}, {kMin}, std::nullopt, Ints{-2}) << Ranges{{4, -1, -2}};
    QTest::newRow("start INT64_MAX, step 1: empty")
        << Shape{5} << attrs({kMax}, {kMax}, std::nullopt, std::nullopt) << Ranges{{5, 5, 1}};
    QTest::newRow("start INT64_MIN, step 1: from 0")
        << Shape{5} << attrs({kMin}, {kMax}, std::nullopt, Ints{2}) << Ranges{{0, 5, 2}};
    QTest::newRow("step beyond the size")
        << Shape{5} << attrs({1}, {5}, std::nullopt, Ints{7}) << Ranges{{1, 2, 1}};
    QTest::newRow("empty axis, step -1")
        << Shape{0, 3} << attrs({0}, {-1}, Ints{0}, Ints{-1}) << Ranges{{0, 0, -1}, {0, 3, 1}};
    QTest::newRow("opset 1: attributes without steps")
        << Shape{4, 3} << attrs({1}, {-1}, Ints{0}, std::nullopt, 1)
        << Ranges{{1, 3, 1}, {0, 3, 1}};
}

void TestOnnxSlice::reads()
{
    QFETCH(Shape, shape);
    QFETCH(Attrs, attrs);
    QFETCH(Ranges, ranges);
    const auto [outShape, values] = expectedSlice(shape, ranges);
    const OpRun r = runOp("onnx_slice", {{iota(shape, 0, DType::Int64)}}, attrs);
    QCOMPARE(r.outputs.at(0).shape(), outShape);
    QCOMPARE(r.outputs.at(0).toInt64Vector(), values);
}

void TestOnnxSlice::refuses_data()
{
    QTest::addColumn<Attrs>("attrs");
    QTest::addColumn<QString>("message");
    auto ints = [](Ints v) { return Attr::ints(v); };
    QTest::newRow("step 0") << Attrs{{"starts", ints({0})},
                                     {"ends", ints({2})},
                                     {"steps", ints({0})}}
                            << "'step' cannot be 0 for Slice";
    QTest::newRow("axis twice") << Attrs{{"starts", ints({0, 0})},
                                         {"ends", ints({1, 1})},
                                         {"axes", ints({1, -1})}}
                                << "'axes' has duplicates";
    QTest::newRow("axis beyond the rank")
        << Attrs{{"starts", ints({0})}, {"ends", ints({1})}, {"axes", ints({2})}}
        << "Input axes has invalid data: axis 2 is outside [-2, 1]";
    QTest::newRow("starts and ends of other lengths")
        << Attrs{{"starts", ints({0, 0})}, {"ends", ints({1})}}
        << "Incorrect or missing input value for starts and ends";
    QTest::newRow("axes of another length")
        << Attrs{{"starts", ints({0})}, {"ends", ints({1})}, {"axes", ints({0, 1})}}
        << "Input axes has incorrect length";
    QTest::newRow("steps of another length")
        << Attrs{{"starts", ints({0})}, {"ends", ints({1})}, {"steps", ints({1, 1})}}
        << "Input steps has incorrect length";
    QTest::newRow("steps before opset 10") << Attrs{{"starts", ints({0})},
                                                    {"ends", ints({1})},
                                                    {"steps", ints({1})},
                                                    {"opset", Attr(9)}}
                                           << "Slice before opset 10 has no steps";
    QTest::newRow("negative axis before opset 11") << Attrs{{"starts", ints({0})},
                                                            {"ends", ints({1})},
                                                            {"axes", ints({-1})},
                                                            {"opset", Attr(10)}}
                                                   << "which Slice accepts from opset 11";
}

void TestOnnxSlice::refuses()
{
    QFETCH(Attrs, attrs);
    QFETCH(QString, message);
    try {
        runOp("onnx_slice", {{iota({4, 3})}}, attrs);
        QFAIL("no error");
    } catch (const OpError& e) {
        QCOMPARE(e.code(), ErrorCode::InvalidArgument);
        QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
    }
}

// The op's example: the same rules explained on a small input, and the note on ONNX Runtime
// where an explicit INT64_MAX end meets a negative step.
void TestOnnxSlice::example()
{
    const OpDef* def = findOp("onnx_slice");
    QVERIFY(def);
    const OpRun r = runOp("onnx_slice", {{iota({3, 4})}}, def->example.attrs);
    QCOMPARE(r.outputs.at(0).shape(), (Shape{2, 2}));
    QCOMPARE(r.outputs.at(0).toInt64Vector(), (Ints{9, 11, 1, 3}));
    const OpRun ort = runOp(
        "onnx_slice", {{iota({5})}},
        {{"starts", Attr::ints({-1})}, {"ends", Attr::ints({kMax})}, {"steps", Attr::ints({-1})}});
    QVERIFY(ort.plan.steps.front().detail.find("ONNX Runtime") != std::string::npos);
}

QTEST_APPLESS_MAIN(TestOnnxSlice)
#include "tst_onnx_slice.moc"
