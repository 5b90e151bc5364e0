// SPDX-License-Identifier: GPL-3.0-or-later
// The other ops' code (core/frameworks/op_equivalents.cpp) run with the real NumPy and PyTorch:
// each template, filled with a call's attributes, must give what the engine's op gives for the
// same inputs. Where a framework has no equivalent, opCode must say so rather than write code.
#include "core/frameworks/code_snippet.h"
#include "core/frameworks/op_equivalents.h"
#include "framework_oracle.h"

#include <QTest>

using namespace ss;
using namespace ss::testing;

namespace {

struct OpCase
{
    const char* name;
    const char* op;
    Shape shape;
    Attrs attrs;
    std::string setup; // python defining the other inputs from x (the same in NumPy and PyTorch)
    bool torch = true; // PyTorch has an equivalent for this call
};

Tensor plus100(const Tensor& x)
{
    Tensor t = Tensor::empty(x.dtype(), x.shape());
    for (std::int64_t i = 0; i < t.size(); ++i)
        t.setFromInt(i, x.intAt(i) + 100);
    return t;
}

Attr pairs(std::vector<std::vector<std::int64_t>> rows)
{
    Attr::List list;
    for (const auto& r : rows)
        list.push_back(Attr::ints(r));
    return list;
}

// The engine's answer for a case, with the same extra inputs the setup makes.
Tensor engineResult(const OpCase& c)
{
    const Tensor x = iota(c.shape, 0, DType::Int64);
    const std::string op = c.op;
    std::vector<std::vector<Tensor>> inputs;
    if (op == "gather") {
        inputs = {{x}, {ints(DType::Int64, {2, 2}, {0, 2, 1, 1})}};
    } else if (op == "concat" || op == "stack") {
        inputs = {{x, plus100(x)}};
    } else if (op == "boolean_mask") {
        Tensor mask = Tensor::empty(DType::Bool, x.shape());
        for (std::int64_t i = 0; i < x.size(); ++i)
            mask.setFromInt(i, i % 2 == 0);
        inputs = {{x}, {mask}};
    } else {
        inputs = {{x}};
    }
    return runOp(op, std::move(inputs), c.attrs).outputs[0];
}

} // namespace

class TestFrameworkOps : public QObject
{
    Q_OBJECT

private slots:
    void codeForOtherOpsRunsAsTheEngine()
    {
        const std::vector<OpCase> cases = {
            {"tile", "tile", {2, 3}, {{"multiples", Attr::ints({2, 3})}}, ""},
            {"pad constant",
             "pad",
             {2, 3},
             {{"paddings", pairs({{1, 2}, {0, 1}})}, {"constant_values", Attr(7)}},
             ""},
            {"pad reflect",
             "pad",
             {1, 3, 4},
             {{"paddings", pairs({{0, 0}, {1, 1}, {2, 0}})}, {"mode", Attr("REFLECT")}},
             "x = x * 1.0\n"}, // PyTorch reflects floating-point tensors only
            {"pad symmetric",
             "pad",
             {2, 3},
             {{"paddings", pairs({{1, 1}, {2, 0}})}, {"mode", Attr("symmetric")}},
             "",
             false},
            {"transpose", "transpose", {2, 3, 4}, {{"perm", Attr::ints({1, 0, 2})}}, ""},
            {"reverse", "reverse", {2, 3, 4}, {{"axis", Attr::ints({0, 2})}}, ""},
            {"roll",
             "roll",
             {2, 3, 4},
             {{"shift", Attr::ints({1, -5})}, {"axis", Attr::ints({0, 2})}},
             ""},
            {"gather",
             "gather",
             {3, 4},
             {{"axis", Attr(1)}},
             "indices = lib.asarray([[0, 2], [1, 1]])\n"},
            {"stack", "stack", {2, 3}, {{"axis", Attr(1)}}, "values = [x, x + 100]\n"},
            {"concat", "concat", {2, 3}, {{"axis", Attr(0)}}, "values = [x, x + 100]\n"},
            {"boolean_mask", "boolean_mask", {2, 3}, {}, "mask = x % 2 == 0\n"},
        };
        for (const char* lib : {"numpy", "torch"}) {
            const Framework f = std::string(lib) == "numpy" ? Framework::NumPy : Framework::PyTorch;
            std::vector<std::pair<Shape, std::string>> batch;
            std::vector<const OpCase*> ran;
            for (const OpCase& c : cases) {
                const OpDef* def = findOp(c.op);
                QVERIFY(def);
                if (f == Framework::PyTorch && !c.torch) {
                    bool refused = false;
                    try {
                        opCode(f, *def, c.attrs);
                    } catch (const OpError& e) {
                        refused = std::string(e.what()).starts_with("no direct equivalent");
                    }
                    QVERIFY2(refused, c.name);
                    continue;
                }
                // The code names the first input as the GUI does (tile's `input`, gather's
                // `params`): it is the x made for the case (after the setup, which may change x;
                // a list input is made by the setup).
                const std::string lead = std::string("import ") + lib + " as lib\n";
                const std::string first =
                    def->inputs[0].isList ? "" : snippetInputName(*def, 0) + " = x\n";
                batch.emplace_back(c.shape, lead + c.setup + first + opCode(f, *def, c.attrs));
                ran.push_back(&c);
            }
            const auto runs = runCodeBatch(lib, batch);
            for (std::size_t k = 0; k < ran.size(); ++k) {
                const Tensor expected = engineResult(*ran[k]);
                const std::string where = std::string(lib) + " " + ran[k]->name + ": " +
                                          describeRun(runs[k].ok, runs[k].shape, runs[k].values,
                                                      runs[k].errorType + ": " + runs[k].message) +
                                          "\n" + batch[k].second;
                QVERIFY2(runs[k].ok && runs[k].shape == expected.shape() &&
                             runs[k].values == values(expected),
                         where.c_str());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestFrameworkOps)
#include "tst_framework_ops.moc"
