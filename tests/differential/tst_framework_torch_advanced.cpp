// SPDX-License-Identifier: GPL-3.0-or-later
// The NumPy model's advanced indexing (core/frameworks/numpy_model.cpp, advanced_index.cpp)
// against Debian's python3-numpy 1.24: random subscripts with integer index arrays of rank 0-3,
// boolean masks, bool scalars and whole-list subscripts, mixed with integers, slices, None and
// ..., negative and out-of-range values, run in one python process. Values (so every element's
// source, which runModel checks against the values), shapes, error classes and messages must all
// match, and every subscript must be modelled.
#include "core/frameworks/torch_model.h"
#include "framework_oracle.h"
#include "subscript_gen.h"

#include <QTest>

using namespace ss;
using namespace ss::testing;

namespace {
// Under AddressSanitizer the engine side runs several times slower; the count stays the same
// (it is the python side that dominates), checked to stay well inside the suite's timeout.
constexpr int kCases = 5200;
constexpr std::uint64_t kSeed = 20261128;
} // namespace

class TestFrameworkTorchAdvanced : public QObject
{
    Q_OBJECT

private slots:
    void randomAdvancedSubscriptsMatchNumpy()
    {
        const TorchModel model;
        SubscriptGenerator gen(kSeed);
        std::vector<std::pair<Shape, std::string>> cases;
        std::vector<ModelRun> runs;
        for (int k = 0; k < kCases; ++k) {
            const Shape shape = gen.shape(4, 256);
            const std::string text = gen.advancedSubscript(shape).engineText;
            const IndexSpec spec = IndexSpec::fromExpression(text);
            runs.push_back(runModel(model, spec, shape));
            cases.emplace_back(shape, "import torch\n" + text);
        }
        const std::vector<CodeRun> numpy = runCodeBatch("torch", cases);
        int results = 0, errors = 0, notModelled = 0;
        std::vector<std::string> failures; // every mismatch, so one run shows them all
        for (std::size_t k = 0; k < cases.size(); ++k) {
            const ModelRun& m = runs[k];
            const CodeRun& n = numpy[k];
            const std::string where =
                lastLine(cases[k].second) + " on shape " + shapeTuple(cases[k].first) + ": model " +
                describeRun(m.outcome.kind == FrameworkOutcome::Kind::Result, m.shape, m.values,
                            m.outcome.errorType + ": " + m.outcome.message) +
                ", PyTorch " + describeRun(n.ok, n.shape, n.values, n.errorType + ": " + n.message);
            switch (m.outcome.kind) {
            case FrameworkOutcome::Kind::Result:
                ++results;
                if (!(n.ok && n.shape == m.shape && n.values == m.values))
                    failures.push_back(where);
                break;
            case FrameworkOutcome::Kind::Error:
                ++errors;
                if (!(!n.ok && n.errorType == m.outcome.errorType &&
                      n.message == m.outcome.message))
                    failures.push_back(where);
                break;
            case FrameworkOutcome::Kind::NotModelled:
                // Only where PyTorch reads a size past the end of its sizes array (undefined
                // behaviour): an integer or a slice that two ellipses move past the last
                // dimension.
                ++notModelled;
                if (m.outcome.message.find("past the end") == std::string::npos &&
                    m.outcome.message.find("does not have") == std::string::npos)
                    failures.push_back(where);
                break;
            }
        }
        for (std::size_t k = 0; k < failures.size() && k < 25; ++k)
            qWarning("%s", failures[k].c_str());
        QVERIFY2(failures.empty(), (std::to_string(failures.size()) + " mismatches").c_str());
        qInfo("PyTorch advanced indexing: %d results and %d errors equal, %d not modelled, of %d "
              "subscripts",
              results, errors, notModelled, kCases);
        QVERIFY(notModelled <= kCases / 100);
        QVERIFY(results >= 2500);
        QVERIFY(errors >= 500);
    }
};

QTEST_APPLESS_MAIN(TestFrameworkTorchAdvanced)
#include "tst_framework_torch_advanced.moc"
