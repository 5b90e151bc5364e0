// SPDX-License-Identifier: GPL-3.0-or-later
// Every op's framework equivalents are data on the op (OpDef::equivalents, in the op's own
// file): each op, including the frameworks library's compare, says for each of the six
// frameworks what it is called there or why it has none, and opCode renders those templates.
// Issue 21: `code --op` answered "no direct equivalent" for ops that have one (ONNX Split,
// ReverseSequence, GatherND, Unique, Slice; torch.split, torch.unbind; np.split).
#include "core/error.h"
#include "core/frameworks/framework_model.h"
#include "core/frameworks/op_equivalents.h"
#include "core/op.h"

#include <QTest>

using namespace ss;

namespace {

// Every framework, from the count the op definitions are written against.
std::vector<Framework> allFrameworks()
{
    std::vector<Framework> all;
    for (std::size_t k = 0; k < kFrameworkCount; ++k)
        all.push_back(Framework(k));
    return all;
}

Framework frameworkByKey(const QString& key)
{
    const FrameworkModel* model = findFramework(key.toStdString());
    if (!model) qFatal("no framework %s", qPrintable(key));
    return model->id();
}

} // namespace

Q_DECLARE_METATYPE(ss::Attrs)

class TestOpEquivalents : public QObject
{
    Q_OBJECT

private slots:
    // The registry's check: an op added without saying what it is in some framework fails here.
    void everyOpNamesEveryFramework()
    {
        QVERIFY(findOp("compare")); // the frameworks library's op is listed too
        QCOMPARE(frameworkModels().size(), kFrameworkCount);
        int answered = 0;
        for (const OpDef& op : allOps()) {
            if (op.indexSpec) {
                // The framework models write getitem's and strided_slice's code.
                QVERIFY2(op.equivalents.empty(), op.name.c_str());
                continue;
            }
            for (const Framework f : allFrameworks()) {
                const std::string where = op.name + " in " + std::string(frameworkModel(f).title());
                bool listed = false;
                for (const Equivalent& e : op.equivalents) {
                    if (e.framework != f) continue;
                    listed = true;
                    QVERIFY2(!e.code.empty() || !e.note.empty(),
                             ("no code and no reason: " + where).c_str());
                }
                QVERIFY2(listed, ("neither an equivalent nor a reason: " + where).c_str());
                ++answered;
            }
        }
        QVERIFY(answered >= 6 * 30);
    }

    // Each op's own example, in each framework: code, or the reason in the error.
    void everyExampleGetsCodeOrAReason()
    {
        for (const OpDef& op : allOps()) {
            for (const Framework f : allFrameworks()) {
                const std::string where = op.name + " in " + std::string(frameworkModel(f).title());
                try {
                    const std::string code = opCode(f, op, op.example.attrs);
                    QVERIFY2(!code.empty() && code.back() == '\n', where.c_str());
                    QVERIFY2(code.find('{') == std::string::npos || op.indexSpec,
                             ("a template field left unrendered: " + where + "\n" + code).c_str());
                } catch (const OpError& e) {
                    const std::string text = e.what();
                    QVERIFY2(e.code() == ErrorCode::InvalidArgument, (where + ": " + text).c_str());
                    const std::string head = "no direct equivalent in " +
                                             std::string(frameworkModel(f).title()) + " for " +
                                             op.name + ": ";
                    QVERIFY2(text.rfind(head, 0) == 0 && text.size() > head.size() + 10,
                             (where + ": " + text).c_str());
                }
            }
        }
    }

    void opCodeRendersTheOpsTemplates_data()
    {
        QTest::addColumn<QString>("framework");
        QTest::addColumn<QString>("op");
        QTest::addColumn<Attrs>("attrs");
        QTest::addColumn<QString>("expected");

        const Attrs splitSizes{{"num_or_size_splits", Attr::ints({2, 3, -1})}, {"axis", Attr(1)}};
        QTest::newRow("onnx Split")
            << "onnx"
            << "split" << splitSizes
            << "# inputs: value, split = [2, 3, value.shape[1] - 5] (int64)\n"
               "helper.make_node(\"Split\", [\"value\", \"split\"], "
               "[\"y_0\", \"y_1\", \"y_2\"], axis=1)\n";
        QTest::newRow("np.split sizes to cuts")
            << "numpy"
            << "split" << splitSizes << "np.split(value, [2, 5], axis=1)\n";
        // After the -1 the pieces start counted from the end.
        QTest::newRow("np.split -1 in the middle")
            << "numpy"
            << "split"
            << Attrs{{"num_or_size_splits", Attr::ints({2, -1, 3})}, {"split_dim", Attr(-1)}}
            << "np.split(value, [2, value.shape[-1] - 3], axis=-1)\n";
        QTest::newRow("np.split count")
            << "numpy"
            << "split" << Attrs{{"num_split", Attr(3)}} << "np.split(value, 3, axis=0)\n";
        QTest::newRow("torch.split count is a size")
            << "torch"
            << "split" << Attrs{{"num_or_size_splits", Attr(2)}}
            << "torch.split(value, [value.shape[0] // 2, value.shape[0] // 2], dim=0)\n";
        QTest::newRow("torch.split sizes")
            << "torch"
            << "split" << splitSizes << "torch.split(value, [2, 3, value.shape[1] - 5], dim=1)\n";
        QTest::newRow("torch.unbind")
            << "torch"
            << "unstack" << Attrs{{"axis", Attr(1)}} << "torch.unbind(value, dim=1)\n";
        QTest::newRow("np unstack") << "numpy"
                                    << "unstack" << Attrs{} << "list(np.moveaxis(value, 0, 0))\n";
        QTest::newRow("onnx ReverseSequence")
            << "onnx"
            << "reverse_sequence" << Attrs{{"seq_axis", Attr(1)}}
            << "helper.make_node(\"ReverseSequence\", [\"input\", \"seq_lengths\"], [\"y\"], "
               "batch_axis=0, time_axis=1)\n";
        QTest::newRow("onnx GatherND")
            << "onnx"
            << "gather_nd" << Attrs{}
            << "helper.make_node(\"GatherND\", [\"params\", \"indices\"], [\"y\"], batch_dims=0)\n";
        QTest::newRow("np gather_nd")
            << "numpy"
            << "gather_nd" << Attrs{} << "params[tuple(np.moveaxis(indices, -1, 0))]\n";
        QTest::newRow("onnx Unique")
            << "onnx"
            << "unique_with_counts" << Attrs{}
            << "helper.make_node(\"Unique\", [\"x\"], [\"y\", \"\", \"idx\", \"count\"], "
               "sorted=0)\n";
        const Attrs box{{"begin", Attr::ints({1, 1})}, {"size", Attr::ints({2, -1})}};
        QTest::newRow("onnx Slice")
            << "onnx"
            << "slice" << box
            << "# inputs: input, starts = [1, 1] (int64), ends = [3, 9223372036854775807] "
               "(int64)\nhelper.make_node(\"Slice\", [\"input\", \"starts\", \"ends\"], "
               "[\"y\"])\n";
        QTest::newRow("np slice") << "numpy"
                                  << "slice" << box << "\n\ninput[1:3, 1:]\n";
        QTest::newRow("tf args") << "tensorflow"
                                 << "split" << Attrs{{"num_or_size_splits", Attr(2)}}
                                 << "tf.split(value, num_or_size_splits=2)\n";
        QTest::newRow("tf legacy space_to_batch")
            << "tensorflow"
            << "space_to_batch" << Attrs{{"block_size", Attr(2)}}
            << "tf.compat.v1.space_to_batch(input, block_size=2)\n";
        QTest::newRow("pad mode absent is CONSTANT")
            << "numpy"
            << "pad" << Attrs{{"paddings", Attr::List{Attr::ints({1, 2})}}}
            << "np.pad(tensor, [[1, 2]], constant_values=0)\n";
    }
    void opCodeRendersTheOpsTemplates()
    {
        QFETCH(QString, framework);
        QFETCH(QString, op);
        QFETCH(Attrs, attrs);
        QFETCH(QString, expected);
        const OpDef* def = findOp(op.toStdString());
        QVERIFY(def);
        const std::string code = opCode(frameworkByKey(framework), *def, attrs);
        QVERIFY2(code.size() >= std::size_t(expected.size()) &&
                     code.compare(code.size() - std::size_t(expected.toUtf8().size()),
                                  std::string::npos, expected.toStdString()) == 0,
                 code.c_str());
    }

    // No equivalent: the reason the op gives, in the error; a condition picks the entry (pad's
    // mode, gather_nd's batch_dims).
    void opCodeGivesTheReason_data()
    {
        QTest::addColumn<QString>("framework");
        QTest::addColumn<QString>("op");
        QTest::addColumn<Attrs>("attrs");
        QTest::addColumn<QString>("reason");
        QTest::newRow("onnx unstack")
            << "onnx"
            << "unstack" << Attrs{} << "ONNX has no unstack: Split into pieces of 1";
        QTest::newRow("torch symmetric pad")
            << "torch"
            << "pad"
            << Attrs{{"paddings", Attr::List{Attr::ints({1, 1})}}, {"mode", Attr("symmetric")}}
            << "torch.nn.functional.pad has no symmetric mode";
        QTest::newRow("numpy batched gather_nd")
            << "numpy"
            << "gather_nd" << Attrs{{"batch_dims", Attr(1)}} << "NumPy has no batched gather_nd";
        QTest::newRow("numpy unique sorts")
            << "numpy"
            << "unique_with_counts" << Attrs{} << "NumPy sorts the distinct values";
    }
    void opCodeGivesTheReason()
    {
        QFETCH(QString, framework);
        QFETCH(QString, op);
        QFETCH(Attrs, attrs);
        QFETCH(QString, reason);
        try {
            const std::string code =
                opCode(frameworkByKey(framework), *findOp(op.toStdString()), attrs);
            QFAIL(("wrote code: " + code).c_str());
        } catch (const OpError& e) {
            QCOMPARE(e.code(), ErrorCode::InvalidArgument);
            QVERIFY2(QString::fromUtf8(e.what()).contains(reason), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestOpEquivalents)
#include "tst_op_equivalents.moc"
