// SPDX-License-Identifier: GPL-3.0-or-later
// Pasted code through model/pasted_code.h: TensorFlow node text as a .pbtxt prints it reads as
// the same op and arguments as the Python call that builds the node (read by the call reader),
// and gives the same result; text that does not read says where it stopped.
#include "../engine/op_runner.h"
#include "model/pasted_code.h"

#include <QTest>

using namespace ss;
using namespace ss::testing;

namespace {

// A Const node of int32 values, as TensorFlow prints one.
std::string constNode(const std::string& name, const std::vector<int>& values)
{
    std::string out =
        "node {\n  name: \"" + name +
        "\"\n  op: \"Const\"\n  attr {\n    key: \"dtype\"\n    value { type: DT_INT32 }\n  }\n"
        "  attr {\n    key: \"value\"\n    value {\n      tensor {\n        dtype: DT_INT32\n"
        "        tensor_shape { dim { size: " +
        std::to_string(values.size()) + " } }\n";
    for (const int v : values)
        out += "        int_val: " + std::to_string(v) + "\n";
    return out + "      }\n    }\n  }\n}\n";
}

std::string intAttr(const std::string& key, int value)
{
    return "  attr {\n    key: \"" + key + "\"\n    value { i: " + std::to_string(value) +
           " }\n  }\n";
}

const std::string kTypeT = "  attr {\n    key: \"T\"\n    value { type: DT_INT32 }\n  }\n";

std::string stridedSliceText(int beginMask, int endMask, int shrinkMask)
{
    return constNode("begin", {0, 1}) + constNode("end", {0, -1}) + constNode("strides", {1, 2}) +
           "node {\n  name: \"s\"\n  op: \"StridedSlice\"\n  input: \"x\"\n  input: \"begin\"\n"
           "  input: \"end\"\n  input: \"strides\"\n" +
           kTypeT + intAttr("begin_mask", beginMask) + intAttr("end_mask", endMask) +
           intAttr("shrink_axis_mask", shrinkMask) + "}\n";
}

} // namespace

class TestPastedCode : public QObject
{
    Q_OBJECT

private slots:
    void sameAsTheCall_data()
    {
        QTest::addColumn<QString>("nodeText");
        QTest::addColumn<QString>("call");
        QTest::newRow("StridedSlice, masks")
            << QString::fromStdString(stridedSliceText(1, 1, 0))
            << "tf.strided_slice(x, [0, 1], [0, -1], [1, 2], begin_mask=1, end_mask=1)";
        QTest::newRow("StridedSlice, begin_mask 5 shrink 1")
            << QString::fromStdString(stridedSliceText(5, 0, 1))
            << "tf.strided_slice(x, [0, 1], [0, -1], [1, 2], begin_mask=5, shrink_axis_mask=1)";
        QTest::newRow("Slice")
            << QString::fromStdString(
                   constNode("b", {1, 0}) + constNode("n", {2, -1}) +
                   "node { name: \"sl\" op: \"Slice\" input: \"x\" input: "
                   "\"b\" input: \"n\" attr { key: \"T\" value { type: "
                   "DT_INT32 } } attr { key: \"Index\" value { type: DT_INT32 } } }")
            << "tf.slice(x, [1, 0], [2, -1])";
        QTest::newRow("GatherV2")
            << QString::fromStdString(
                   constNode("idx", {3, 1}) +
                   constNode("axis", {1})
                       .replace(constNode("axis", {1}).find("tensor_shape { dim { size: 1 } }"),
                                std::string("tensor_shape { dim { size: 1 } }").size(),
                                "tensor_shape { }") +
                   "node { name: \"g\" op: \"GatherV2\" input: \"x\" input: "
                   "\"idx\" input: \"axis\" attr { key: \"Tparams\" value { "
                   "type: DT_INT32 } } attr { key: \"batch_dims\" value { i: 0 } } }")
            << "tf.gather(x, [3, 1], axis=1)";
    }

    void sameAsTheCall()
    {
        QFETCH(QString, nodeText);
        QFETCH(QString, call);
        const Shape shape{3, 4};
        QVERIFY(model::looksLikeNodeText(nodeText.toStdString()));
        QVERIFY(model::looksLikePastedCode(nodeText.toStdString()));
        const CallTranslation fromNode = model::translatePastedCode(nodeText.toStdString(), shape);
        const CallTranslation fromCall = model::translatePastedCode(call.toStdString(), shape);
        QCOMPARE(fromNode.op, fromCall.op);
        QCOMPARE(fromNode.tensor, std::string("x"));
        const auto run = [&](const CallTranslation& t) {
            std::vector<std::vector<Tensor>> inputs{{iota(shape)}};
            for (const auto& given : t.givenInputs)
                inputs.push_back({given.second});
            return runOp(t.op, std::move(inputs), t.attrs).outputs[0];
        };
        const Tensor a = run(fromNode);
        const Tensor b = run(fromCall);
        QCOMPARE(a.shape(), b.shape());
        QCOMPARE(a.toInt64Vector(), b.toInt64Vector());
    }

    // A NodeDef's fields alone (the inside of `node { ... }`) read as that node.
    void bareNode()
    {
        const std::string text = "name: \"s\" op: \"StridedSlice\" input: \"x\" input: \"b\" "
                                 "input: \"e\" input: \"st\"";
        QVERIFY(model::looksLikeNodeText(text));
        // Without the Const nodes the text does not give the arguments: the message names the
        // first one.
        try {
            model::translatePastedCode(text);
            QFAIL("accepted a node whose arguments the text does not give");
        } catch (const OpError& e) {
            QCOMPARE(std::string(errorCodeName(e.code())), std::string("parse_error"));
            QVERIFY2(std::string(e.what()).find("its input 'b' is not in the text") !=
                         std::string::npos,
                     e.what());
            QCOMPARE(e.position().value_or(-1), int(text.find("\"b\"")));
        }
    }

    void refused_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("at");
        QTest::addColumn<QString>("message");
        QTest::newRow("syntax") << "node { name: \"s\" op: StridedSlice\" }"
                                << "StridedSlice\""
                                << "the node text does not read: line 1";
        QTest::newRow("unknown field") << "node { name: \"s\" opp: \"Slice\" }"
                                       << ": \"Slice\""
                                       << "the node text does not read";
        QTest::newRow("not the family") << "node { name: \"r\" op: \"Relu\" input: \"x\" }"
                                        << "op:"
                                        << "no op of the slicing family";
        QTest::newRow("two nodes")
            << "node { name: \"a\" op: \"Transpose\" input: \"x\" input: \"p\" }\n"
               "node { name: \"b\" op: \"Transpose\" input: \"x\" input: \"p\" }"
            << "\"b\""
            << "2 nodes of the slicing family";
    }
    void refused()
    {
        QFETCH(QString, text);
        QFETCH(QString, at);
        QFETCH(QString, message);
        try {
            model::translatePastedCode(text.toStdString());
            QFAIL("accepted");
        } catch (const OpError& e) {
            QCOMPARE(std::string(errorCodeName(e.code())), std::string("parse_error"));
            QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
            QCOMPARE(e.position().value_or(-1), int(text.indexOf(at)));
        }
    }

    // Python calls go to the call reader; subscripts are not pasted code.
    void dispatch()
    {
        QVERIFY(model::looksLikePastedCode("tf.gather(x, [1])"));
        QVERIFY(!model::looksLikePastedCode("x[1, ::2]"));
        QVERIFY(!model::looksLikeNodeText("name[0]"));
        QCOMPARE(model::translatePastedCode("x[1][2]").attrs.at("expr").toString(),
                 std::string("x[1, 2]"));
    }
};

QTEST_APPLESS_MAIN(TestPastedCode)
#include "tst_pasted_code.moc"
