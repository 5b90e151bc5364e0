// SPDX-License-Identifier: GPL-3.0-or-later
// The diagnosis of a wrong output, checked word for word on a table of (expected spec, actual
// spec) pairs made by a seeded generator from the bug classes of the public reports: a begin off
// by one, a new axis moved, axes transposed, a stride's sign flipped, strides dropped, an INT_MAX
// end read as the last index, and correct outputs written another way (never called wrong).
// Every actual output is produced by running the actual spec through the engine.
#include "core/slice_diagnosis.h"
#include "op_runner.h"

#include <QTest>

#include <map>
#include <random>

using namespace ss;
using namespace ss::testing;

namespace {

// One input axis of a generated spec: a run (begin, stride, count) or an index.
struct GenAxis
{
    bool index = false;
    std::int64_t begin = 0;
    std::int64_t stride = 1;
    std::int64_t count = 1;
    bool endMax = false; ///< write the end as INT_MAX ("to the end")
};

struct GenSpec
{
    Shape shape;
    std::vector<GenAxis> axes;
    int newAxis = -1; ///< output position of the one new axis, or -1
};

std::int64_t maxCount(std::int64_t begin, std::int64_t stride, std::int64_t size)
{
    return stride > 0 ? (size - 1 - begin) / stride + 1 : begin / -stride + 1;
}

// The subscript as the diagnosis writes a selection: the shortest Python form, new axes right
// after the run before them, trailing full ranges left out.
std::string rangeText(const GenAxis& a, std::int64_t size)
{
    const std::int64_t last = a.begin + a.stride * (a.count - 1);
    const bool toEnd = a.stride > 0 ? last + a.stride >= size : last + a.stride < 0;
    const bool fromStart = a.stride > 0 ? a.begin == 0 : a.begin == size - 1;
    std::string t = fromStart ? "" : std::to_string(a.begin);
    t += ":";
    if (a.endMax)
        t += "2147483647";
    else if (!toEnd)
        t += std::to_string(last + (a.stride > 0 ? 1 : -1));
    if (a.stride != 1) t += ":" + std::to_string(a.stride);
    return t;
}

// The same selection written out in full with negative indices: another text, the same reads.
std::string longRangeText(const GenAxis& a, std::int64_t size)
{
    const std::int64_t last = a.begin + a.stride * (a.count - 1);
    std::int64_t end = last + (a.stride > 0 ? 1 : -1);
    if (end < 0) end = -size - 1;
    return std::to_string(a.begin - size) + ":" + std::to_string(end) + ":" +
           std::to_string(a.stride);
}

std::string specText(const GenSpec& g, bool longForm = false)
{
    std::vector<std::string> items;
    int runs = 0;
    if (g.newAxis == 0) items.push_back("None");
    for (std::size_t d = 0; d < g.axes.size(); ++d) {
        const GenAxis& a = g.axes[d];
        if (a.index) {
            items.push_back(std::to_string(longForm ? a.begin - g.shape[d] : a.begin));
            continue;
        }
        items.push_back(longForm ? longRangeText(a, g.shape[d]) : rangeText(a, g.shape[d]));
        if (++runs == g.newAxis) items.push_back("None");
    }
    while (!items.empty() && items.back() == ":")
        items.pop_back();
    std::string t = "x[";
    for (std::size_t k = 0; k < items.size(); ++k)
        t += (k ? ", " : "") + items[k];
    return t + (items.empty() ? "...]" : "]");
}

std::vector<std::size_t> runAxes(const GenSpec& g)
{
    std::vector<std::size_t> r;
    for (std::size_t d = 0; d < g.axes.size(); ++d)
        if (!g.axes[d].index) r.push_back(d);
    return r;
}

GenSpec randomSpec(std::mt19937& rng)
{
    auto pick = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    GenSpec g;
    const int rank = int(pick(1, 3));
    for (int d = 0; d < rank; ++d)
        g.shape.push_back(pick(4, 8));
    for (int d = 0; d < rank; ++d) {
        GenAxis a;
        if (rank > 1 && d == rank - 1 && pick(0, 5) == 0) {
            a.index = true;
            a.begin = pick(0, g.shape[std::size_t(d)] - 1);
        } else {
            const std::int64_t strides[] = {1, 2, 3, -1, -2, -3};
            do {
                a.stride = strides[pick(0, 5)];
                a.begin = pick(0, g.shape[std::size_t(d)] - 1);
            } while (maxCount(a.begin, a.stride, g.shape[std::size_t(d)]) < 2);
            a.count = pick(2, maxCount(a.begin, a.stride, g.shape[std::size_t(d)]));
        }
        g.axes.push_back(a);
    }
    if (pick(0, 2) == 0) g.newAxis = int(pick(0, std::int64_t(runAxes(g).size())));
    return g;
}

struct Case
{
    std::string kind;
    GenSpec expected;
    std::string expectedText;
    std::string actualText;
    std::vector<std::int64_t> transpose; ///< applied after the actual subscript
    std::string sentence;
};

// Makes a case of `kind` from `g`, or returns false if `g` cannot show that bug.
bool makeCase(const std::string& kind, GenSpec g, std::mt19937& rng, Case& c)
{
    auto pick = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    const std::vector<std::size_t> runs = runAxes(g);
    if (runs.empty()) return false;
    const std::size_t k = runs[std::size_t(pick(0, std::int64_t(runs.size()) - 1))];
    const std::int64_t size = g.shape[k];
    const std::string onAxis = g.shape.size() == 1 ? "" : " on axis " + std::to_string(k);
    GenSpec actual = g;
    GenAxis& a = actual.axes[k];
    const GenAxis& e = g.axes[k];
    c.kind = kind;
    if (kind == "equivalent") {
        c.expectedText = specText(g);
        c.actualText = specText(g, true);
        c.sentence = "the actual output is the expected one";
    } else if (kind == "begin_off_by_one") {
        const std::int64_t delta = pick(0, 1) ? 1 : -1;
        a.begin = e.begin + delta;
        if (a.begin < 0 || a.begin >= size) return false;
        a.count = std::min(e.count, maxCount(a.begin, a.stride, size));
        c.expectedText = specText(g);
        c.actualText = specText(actual);
        c.sentence = "the runtime read " + c.actualText + "; you asked for " + c.expectedText +
                     ": its begin" + onAxis + " is one " + (delta < 0 ? "lower" : "higher");
    } else if (kind == "sign_flipped") {
        a.stride = -e.stride;
        a.count = maxCount(a.begin, a.stride, size);
        if (a.count < 2) return false;
        c.expectedText = specText(g);
        c.actualText = specText(actual);
        c.sentence = "the stride" + onAxis + " was read as " + std::to_string(a.stride) + ", not " +
                     std::to_string(e.stride) + ": its sign was flipped";
    } else if (kind == "strides_dropped") {
        if (std::abs(e.stride) < 2) return false;
        a.stride = e.stride > 0 ? 1 : -1;
        a.count = std::abs(e.stride) * (e.count - 1) + 1;
        c.expectedText = specText(g);
        c.actualText = specText(actual);
        c.sentence = "strides were ignored on axis " + std::to_string(k);
    } else if (kind == "end_read_as_last") {
        if (e.stride < 0) return false;
        GenAxis& x = g.axes[k];
        x.count = pick(2, (size - 1) / x.stride + 1);
        x.begin = size - 1 - x.stride * (x.count - 1);
        x.endMax = true;
        actual = g;
        actual.axes[k].endMax = false;
        actual.axes[k].count = x.count - 1;
        c.expectedText = specText(g);
        c.actualText = specText(actual);
        c.sentence = "the end INT_MAX was read as the last element" +
                     (g.shape.size() == 1 ? std::string() : " of axis " + std::to_string(k));
    } else if (kind == "new_axis_moved") {
        if (g.newAxis < 0) return false;
        const int outRank = int(runs.size()) + 1;
        actual.newAxis = int(pick(0, outRank - 2));
        if (actual.newAxis >= g.newAxis) ++actual.newAxis;
        c.expectedText = specText(g);
        c.actualText = specText(actual);
        c.sentence = "the new axis landed at position " + std::to_string(actual.newAxis) +
                     ", not " + std::to_string(g.newAxis);
    } else if (kind == "axis_moved") {
        if (runs.size() < 2 || g.newAxis >= 0) return false;
        std::vector<std::int64_t> perm;
        for (std::size_t j = 0; j < runs.size(); ++j)
            perm.push_back(std::int64_t(j));
        while (std::is_sorted(perm.begin(), perm.end()))
            std::shuffle(perm.begin(), perm.end(), rng);
        c.expectedText = specText(g);
        c.actualText = c.expectedText;
        c.transpose = perm;
        std::string order;
        for (const std::int64_t p : perm)
            order += (order.empty() ? "" : ", ") + std::to_string(p);
        c.sentence =
            "the axes were transposed: the runtime gave your axes in the order (" + order + ")";
    } else {
        return false;
    }
    c.expected = g;
    return true;
}

const std::vector<std::string>& kinds()
{
    static const std::vector<std::string> k{"equivalent",      "begin_off_by_one", "sign_flipped",
                                            "strides_dropped", "end_read_as_last", "new_axis_moved",
                                            "axis_moved"};
    return k;
}

// 245 cases, 35 of each kind, the same on every run.
const std::vector<Case>& cases()
{
    static const std::vector<Case> all = [] {
        std::mt19937 rng(20261127);
        std::vector<Case> out;
        for (int round = 0; round < 35; ++round)
            for (const std::string& kind : kinds()) {
                Case c;
                while (!makeCase(kind, randomSpec(rng), rng, c)) {
                }
                out.push_back(c);
            }
        return out;
    }();
    return all;
}

struct Outcome
{
    Diagnosis diagnosis;
    std::string error;
};

Outcome diagnoseCase(const Case& c)
{
    const Tensor input = iota(c.expected.shape);
    Attrs expectedAttrs{{"expr", Attr(c.expectedText)}};
    const OpRun expected = runOp("getitem", {{input}}, expectedAttrs);
    OpRun actual = runOp("getitem", {{input}}, {{"expr", Attr(c.actualText)}});
    if (!c.transpose.empty())
        actual = runOp("transpose", {{actual.outputs[0]}}, {{"perm", Attr::ints(c.transpose)}});
    std::vector<std::int64_t> sources;
    for (const std::int64_t s : expected.sources[0])
        sources.push_back(s == kNoSource ? kNoSource : sourceIndex(s));
    DiagnoseContext ctx;
    ctx.expectedText = c.expectedText;
    ctx.expectedEndIsMax = readsEndAtMax(expected.plan, expectedAttrs);
    return {diagnoseOutput(input, expected.outputs[0], sources, actual.outputs[0], ctx), {}};
}

} // namespace

class TestSliceDiagnosis : public QObject
{
    Q_OBJECT

private slots:
    void generatedTable_data()
    {
        QTest::addColumn<int>("index");
        const auto& all = cases();
        QVERIFY(all.size() >= 200);
        for (std::size_t i = 0; i < all.size(); ++i)
            QTest::addRow("%03d %s %s vs %s%s", int(i), all[i].kind.c_str(),
                          all[i].expectedText.c_str(), all[i].actualText.c_str(),
                          all[i].transpose.empty() ? "" : " transposed")
                << int(i);
    }
    void generatedTable()
    {
        QFETCH(int, index);
        const Case& c = cases()[std::size_t(index)];
        const Diagnosis d = diagnoseCase(c).diagnosis;
        QCOMPARE(std::string(diagnosisClassName(d.kind)), c.kind);
        QCOMPARE(d.sentence, c.sentence);
        QVERIFY(d.sourcesRecovered);
        if (c.kind == "equivalent") QCOMPARE(d.differing, std::int64_t(0));
    }

    // The table of classes found and missed, as the issue asks for it.
    void classTable()
    {
        std::map<std::string, std::pair<int, int>> found; // kind -> (right, total)
        for (const Case& c : cases()) {
            const Diagnosis d = diagnoseCase(c).diagnosis;
            auto& f = found[c.kind];
            f.second++;
            if (diagnosisClassName(d.kind) == c.kind && d.sentence == c.sentence) f.first++;
        }
        int missed = 0;
        for (const auto& [kind, f] : found) {
            qInfo("%-18s found %3d of %3d", kind.c_str(), f.first, f.second);
            missed += f.second - f.first;
        }
        QCOMPARE(missed, 0);
    }

    void shapeDifferences_data()
    {
        QTest::addColumn<QList<qint64>>("expected");
        QTest::addColumn<QList<qint64>>("actual");
        QTest::addColumn<QString>("text");
        QTest::newRow("extra") << QList<qint64>{2, 3, 4} << QList<qint64>{2, 3, 1, 4}
                               << "the actual output has an extra axis of size 1 at position 2";
        QTest::newRow("lacks") << QList<qint64>{2, 1, 4} << QList<qint64>{2, 4}
                               << "the actual output lacks the axis of size 1 at position 1";
        QTest::newRow("moved") << QList<qint64>{2, 1, 4} << QList<qint64>{2, 4, 1}
                               << "the actual output has its axis of size 1 at position 2, not 1";
        QTest::newRow("permuted")
            << QList<qint64>{2, 3} << QList<qint64>{3, 2}
            << "the actual output's shape (3, 2) is the expected (2, 3) with its axes permuted";
        QTest::newRow("reshaped")
            << QList<qint64>{2, 6} << QList<qint64>{4, 3}
            << "the actual output has the same 12 elements in another shape: (4, 3), not (2, 6)";
        QTest::newRow("fewer") << QList<qint64>{9} << QList<qint64>{8}
                               << "the actual output has shape (8,) (8 elements), not (9,) (9)";
        QTest::newRow("same") << QList<qint64>{2, 3} << QList<qint64>{2, 3} << "";
    }
    void shapeDifferences()
    {
        QFETCH(QList<qint64>, expected);
        QFETCH(QList<qint64>, actual);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(shapeDifference(Shape(expected.begin(), expected.end()),
                                                        Shape(actual.begin(), actual.end()))),
                 text);
    }

    // The issue's own example, the sources of the differing elements and the counts.
    void negativeStepOffByOne()
    {
        const Tensor input = iota({10});
        const Attrs attrs{{"expr", Attr("x[9:0:-1]")}};
        const OpRun expected = runOp("getitem", {{input}}, attrs);
        const OpRun actual = runOp("getitem", {{input}}, {{"expr", Attr("x[8::-1]")}});
        std::vector<std::int64_t> sources;
        for (const std::int64_t s : expected.sources[0])
            sources.push_back(sourceIndex(s));
        DiagnoseContext ctx;
        ctx.expectedText = "x[9:0:-1]";
        const Diagnosis d =
            diagnoseOutput(input, expected.outputs[0], sources, actual.outputs[0], ctx);
        QCOMPARE(d.sentence, std::string("the runtime read x[8::-1]; you asked for x[9:0:-1]: its "
                                         "begin is one lower"));
        QCOMPARE(d.matching, std::int64_t(0));
        QCOMPARE(d.differing, std::int64_t(9));
        QCOMPARE(int(d.differences.size()), 5);
        QCOMPARE(d.differences[0].expectedSource, std::int64_t(9));
        QCOMPARE(d.differences[0].actualSource, std::int64_t(8));
    }

    // With different shapes the first differences pair elements by position, not by flat index
    // (which paired expected [0, 3] with actual [1, 0]); shapes of other ranks are not paired.
    void differencesPairByPosition()
    {
        const Tensor input = iota({3, 4});
        const OpRun expected = runOp("getitem", {{input}}, {{"expr", Attr("x[::-1]")}});
        std::vector<std::int64_t> sources;
        for (const std::int64_t s : expected.sources[0])
            sources.push_back(sourceIndex(s));
        const Diagnosis d = diagnoseOutput(input, expected.outputs[0], sources,
                                           i32({3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8}), {});
        QCOMPARE(d.pairing, std::string("at the positions both shapes have"));
        QVERIFY(d.paired);
        QCOMPARE(int(d.differences.size()), 5);
        const std::vector<std::int64_t> positions{0, 1, 2, 4, 5}; // [0, 3] is not in (3, 3)
        const std::vector<std::string> actual{"0", "1", "2", "3", "4"};
        for (std::size_t k = 0; k < positions.size(); ++k) {
            QCOMPARE(d.differences[k].position, positions[k]);
            QCOMPARE(d.differences[k].actual, actual[k]);
            QCOMPARE(d.differences[k].actualSource, std::int64_t(std::stoi(actual[k])));
        }
        const Diagnosis flat =
            diagnoseOutput(input, expected.outputs[0], sources,
                           i32({12}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), {});
        QVERIFY(!flat.paired);
        QCOMPARE(flat.pairing, std::string("the elements cannot be paired by position: the "
                                           "outputs have ranks 2 and 1"));
        QVERIFY(flat.differences.empty());
        const Diagnosis same =
            diagnoseOutput(input, expected.outputs[0], sources,
                           i32({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), {});
        QCOMPARE(same.pairing, std::string());
        QCOMPARE(same.differences[0].position, std::int64_t(0));
    }

    // Repeated input values: nothing is guessed about sources.
    void repeatedValuesGiveNoSources()
    {
        const Tensor input = i32({4}, {1, 1, 2, 3});
        const OpRun expected = runOp("getitem", {{input}}, {{"expr", Attr("x[1:]")}});
        const OpRun actual = runOp("getitem", {{input}}, {{"expr", Attr("x[:3]")}});
        std::vector<std::int64_t> sources;
        for (const std::int64_t s : expected.sources[0])
            sources.push_back(sourceIndex(s));
        const Diagnosis d =
            diagnoseOutput(input, expected.outputs[0], sources, actual.outputs[0], {});
        QCOMPARE(d.kind, DiagnosisClass::Unknown);
        QVERIFY(!d.sourcesRecovered);
        QCOMPARE(d.differing, std::int64_t(2));
    }

    // An empty actual output, and one of strings for a numeric x: said as such, nothing guessed.
    void emptyAndMistypedOutputs()
    {
        const Tensor input = iota({3});
        const OpRun expected = runOp("getitem", {{input}}, {{"expr", Attr("x[1:]")}});
        std::vector<std::int64_t> sources;
        for (const std::int64_t s : expected.sources[0])
            sources.push_back(sourceIndex(s));
        const Diagnosis empty = diagnoseOutput(input, expected.outputs[0], sources,
                                               Tensor::zeros(DType::Int32, {0}), {});
        QCOMPARE(empty.kind, DiagnosisClass::OtherSpec);
        QCOMPARE(empty.sentence, std::string("the actual output holds no elements"));
        QCOMPARE(empty.shapeNote,
                 std::string("the actual output has shape (0,) (0 elements), not (2,) (2)"));
        const Diagnosis text =
            diagnoseOutput(input, expected.outputs[0], sources, strings({2}, {"1", "2"}), {});
        QCOMPARE(text.kind, DiagnosisClass::Unknown);
        QCOMPARE(text.sentence, std::string("the actual output is string and x is int32, so where "
                                            "the actual elements come from is not known"));
        QCOMPARE(text.differing, std::int64_t(2));
    }

    // When no strided selection reads the actual elements: the gather, transpose, reverse or
    // chain that does, in code and in words; when nothing fits, the sources found. x is an
    // arange, so each actual value is the flat index it was read from.
    void fittedSpecs_data()
    {
        QTest::addColumn<QList<qint64>>("inputShape");
        QTest::addColumn<QString>("expectedExpr");
        QTest::addColumn<QList<qint64>>("actualShape");
        QTest::addColumn<QList<qint64>>("actualValues");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("sentence");
        QTest::newRow("gather")
            << QList<qint64>{6} << "x[1:4]" << QList<qint64>{3} << QList<qint64>{4, 1, 5}
            << "other_spec"
            << "the runtime read x.take([4, 1, 5], axis=0), a gather of indices [4, 1, 5] along "
               "axis 0; you asked for x[1:4]";
        QTest::newRow("gather with repeats")
            << QList<qint64>{4} << "x[:3]" << QList<qint64>{3} << QList<qint64>{2, 2, 0}
            << "other_spec"
            << "the runtime read x.take([2, 2, 0], axis=0), a gather of indices [2, 2, 0] along "
               "axis 0; you asked for x[:3]";
        QTest::newRow("strided slice then gather")
            << QList<qint64>{3, 4} << "x[:, 1:3]" << QList<qint64>{3, 2}
            << QList<qint64>{9, 11, 1, 3, 5, 7} << "other_spec"
            << "the runtime read x[:, 1::2].take([2, 0, 1], axis=0), a strided slice, then a "
               "gather of indices [2, 0, 1] along axis 0; you asked for x[:, 1:3]";
        QTest::newRow("transpose then gather")
            << QList<qint64>{2, 3} << "x[:, :2]" << QList<qint64>{3, 2}
            << QList<qint64>{2, 5, 0, 3, 1, 4} << "other_spec"
            << "the runtime read x.transpose(1, 0).take([2, 0, 1], axis=0), a transpose (1, 0), "
               "then a gather of indices [2, 0, 1] along axis 0; you asked for x[:, :2]";
        QTest::newRow("strided slice then transpose")
            << QList<qint64>{3, 4} << "x[1]" << QList<qint64>{2, 3}
            << QList<qint64>{0, 4, 8, 2, 6, 10} << "other_spec"
            << "the runtime read x[:, ::2].transpose(1, 0), a strided slice, then a transpose "
               "(1, 0); you asked for x[1]";
        QTest::newRow("transpose")
            << QList<qint64>{2, 3} << "x[0]" << QList<qint64>{3, 2}
            << QList<qint64>{0, 3, 1, 4, 2, 5} << "other_spec"
            << "the runtime read x.transpose(1, 0), a transpose (1, 0); you asked for x[0]";
        QTest::newRow("reverse")
            << QList<qint64>{2, 3} << "x[1]" << QList<qint64>{2, 3}
            << QList<qint64>{2, 1, 0, 5, 4, 3} << "other_spec"
            << "the runtime read x[:, ::-1], a reverse of axis 1; you asked for x[1]";
        QTest::newRow("reversed axis ends at 0")
            << QList<qint64>{3, 4} << "x[:, ::-1]" << QList<qint64>{3, 3}
            << QList<qint64>{3, 2, 1, 7, 6, 5, 11, 10, 9} << "end_off_by_one"
            << "the runtime read x[:, :0:-1]; you asked for x[:, ::-1]: its end on axis 1 is one "
               "higher, so it reads one element fewer";
        QTest::newRow("reversed axis runs past 0")
            << QList<qint64>{3, 4} << "x[:, :0:-1]" << QList<qint64>{3, 4}
            << QList<qint64>{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8} << "end_off_by_one"
            << "the runtime read x[:, ::-1]; you asked for x[:, :0:-1]: its end on axis 1 is one "
               "lower, so it reads one element more";
        QTest::newRow("end one short")
            << QList<qint64>{6} << "x[1:4]" << QList<qint64>{2} << QList<qint64>{1, 2}
            << "end_off_by_one"
            << "the runtime read x[1:3]; you asked for x[1:4]: its end is one lower, so it reads "
               "one element fewer";
        QTest::newRow("not in x")
            << QList<qint64>{6} << "x[1:4]" << QList<qint64>{3} << QList<qint64>{4, 1, 99}
            << "no_simple_spec"
            << "no simple spec reads what the actual output holds; it holds, in order: x[4], "
               "x[1], not in x";
        QTest::newRow("diagonal")
            << QList<qint64>{2, 2} << "x[:]" << QList<qint64>{2, 2} << QList<qint64>{0, 3, 1, 2}
            << "no_simple_spec"
            << "no simple spec reads what the actual output holds; it holds, in order: x[0, 0], "
               "x[1, 1], x[0, 1], x[1, 0]";
    }
    void fittedSpecs()
    {
        QFETCH(QList<qint64>, inputShape);
        QFETCH(QString, expectedExpr);
        QFETCH(QList<qint64>, actualShape);
        QFETCH(QList<qint64>, actualValues);
        QFETCH(QString, kind);
        QFETCH(QString, sentence);
        const Tensor input = iota(Shape(inputShape.begin(), inputShape.end()));
        const Attrs attrs{{"expr", Attr(expectedExpr.toStdString())}};
        const OpRun expected = runOp("getitem", {{input}}, attrs);
        std::vector<std::int64_t> sources;
        for (const std::int64_t s : expected.sources[0])
            sources.push_back(sourceIndex(s));
        DiagnoseContext ctx;
        ctx.expectedText = expectedExpr.toStdString();
        const Tensor actual =
            i32(Shape(actualShape.begin(), actualShape.end()),
                std::vector<std::int64_t>(actualValues.begin(), actualValues.end()));
        const Diagnosis d = diagnoseOutput(input, expected.outputs[0], sources, actual, ctx);
        QCOMPARE(QString::fromStdString(d.sentence), sentence);
        QCOMPARE(QString::fromStdString(std::string(diagnosisClassName(d.kind))), kind);
        QCOMPARE(d.actualSpec().empty(), kind == "no_simple_spec");
        // The fitted spec reads exactly the actual elements: it is the same in both forms.
        if (d.actualGather) QVERIFY(!d.actualFit);
    }
};

QTEST_APPLESS_MAIN(TestSliceDiagnosis)
#include "tst_slice_diagnosis.moc"
