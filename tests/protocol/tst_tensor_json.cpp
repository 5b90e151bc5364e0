// SPDX-License-Identifier: GPL-3.0-or-later
// Tensors in JSON: the data, value, fill and npy forms, dtype inference, every refusal, the
// element limit checked before allocation, float round trips, and the checksum against NumPy.
#include "core/error.h"
#include "numpy_oracle.h"
#include "protocol/npy.h"
#include "protocol/tensor_json.h"
#include "protocol_test.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <ctime>
#include <limits>
#include <random>

using namespace ss;
using namespace ss::testing;

// Milliseconds of processor time this process used since `started` (every thread): a guard
// against work that grows too fast, which other processes on a loaded machine cannot fail.
static long cpuMs(std::clock_t started)
{
    return long((std::clock() - started) * 1000 / CLOCKS_PER_SEC);
}

namespace {

Tensor fromText(const std::string& text, const Limits& limits = Limits::machineDefault())
{
    return tensorFromJson(parseJson(text), limits);
}

std::string written(const Tensor& t)
{
    std::string out;
    JsonWriter w(out);
    writeTensor(w, t);
    return out;
}

} // namespace

class TestTensorJson : public QObject
{
    Q_OBJECT

private slots:
    void readsEveryDtype_data();
    void readsEveryDtype();
    void infersLikeTensorFlow_data();
    void infersLikeTensorFlow();
    void refusesBadTensors_data();
    void refusesBadTensors();
    void checksTheLimitBeforeAllocating_data();
    void checksTheLimitBeforeAllocating();
    void fillsInsideTheEngine();
    void readsNpyPaths();
    void floatsRoundTripExactly();
    void int64RoundTripsExactly();
    void writesSummaries();
    void checksumMatchesNumpy();
    void checksumOnWorkersIsTheSame_data();
    void checksumOnWorkersIsTheSame();
    void literalErrorsCarryPositions();
};

void TestTensorJson::readsEveryDtype_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<QByteArray>("written");
    auto row = [](const char* name, const char* in, const char* out) {
        QTest::newRow(name) << QByteArray(in) << QByteArray(out);
    };
    row("bool", R"({"dtype":"bool","shape":[3],"data":[true,false,true]})",
        R"({"dtype":"bool","shape":[3],"data":[true,false,true]})");
    row("int8 extremes", R"({"dtype":"int8","shape":[2],"data":[-128,127]})",
        R"({"dtype":"int8","shape":[2],"data":[-128,127]})");
    row("uint8 extremes", R"({"dtype":"uint8","shape":[2],"data":[0,255]})",
        R"({"dtype":"uint8","shape":[2],"data":[0,255]})");
    row("int16 extremes", R"({"dtype":"int16","shape":[2],"data":[-32768,32767]})",
        R"({"dtype":"int16","shape":[2],"data":[-32768,32767]})");
    row("int32 extremes", R"({"dtype":"int32","shape":[2],"data":[-2147483648,2147483647]})",
        R"({"dtype":"int32","shape":[2],"data":[-2147483648,2147483647]})");
    row("int64 extremes",
        R"({"dtype":"int64","shape":[2],"data":[-9223372036854775808,9223372036854775807]})",
        R"({"dtype":"int64","shape":[2],"data":[-9223372036854775808,9223372036854775807]})");
    row("float32 specials",
        R"({"dtype":"float32","shape":[2,3],"data":[0.1,"nan","inf","-inf",-0.0,1e-45]})",
        R"({"dtype":"float32","shape":[2,3],"data":[0.1,"nan","inf","-inf",-0,1e-45]})");
    row("float32 from integers", R"({"dtype":"float32","shape":[2],"data":[16777217,3]})",
        R"({"dtype":"float32","shape":[2],"data":[16777216,3]})");
    row("float64", R"({"dtype":"float64","shape":[3],"data":[0.1,1e300,5e-324]})",
        R"({"dtype":"float64","shape":[3],"data":[0.1,1e+300,5e-324]})");
    row("string", R"({"dtype":"string","shape":[2,1],"data":["a0","caf\u00e9"]})",
        "{\"dtype\":\"string\",\"shape\":[2,1],\"data\":[\"a0\",\"caf\xc3\xa9\"]}");
    // NumPy's bytes ('|S') stay bytes; "bytes": false is text, as without it.
    row("bytes", R"({"dtype":"string","shape":[2],"bytes":true,"data":["a","\u00e9"]})",
        "{\"dtype\":\"string\",\"shape\":[2],\"bytes\":true,\"data\":[\"a\",\"\xc3\xa9\"]}");
    // Bytes that are not UTF-8 (a '|S' file may hold any): each byte the code point of its value.
    row("bytes latin-1",
        R"({"dtype":"string","shape":[2],"bytes":"latin-1","data":["a","\u00ff\u00e9"]})",
        "{\"dtype\":\"string\",\"shape\":[2],\"bytes\":\"latin-1\",\"data\":[\"a\","
        "\"\xc3\xbf\xc3\xa9\"]}");
    row("bytes latin-1 that are UTF-8",
        R"({"dtype":"string","shape":[1],"bytes":"latin-1","data":["\u00c3\u00a9"]})",
        "{\"dtype\":\"string\",\"shape\":[1],\"bytes\":true,\"data\":[\"\xc3\xa9\"]}");
    row("bytes value", R"({"bytes":true,"value":[["a"]]})",
        R"({"dtype":"string","shape":[1,1],"bytes":true,"data":["a"]})");
    row("bytes false", R"({"dtype":"string","shape":[1],"bytes":false,"data":["a"]})",
        R"({"dtype":"string","shape":[1],"data":["a"]})");
    // NumPy's length of the strings ('|S5', '<U5': 5), which a file gave, is kept, even shorter
    // than the longest element (an edit typed a longer one: the .npy writer takes the longest).
    row("bytes of length 5",
        R"({"dtype":"string","shape":[1],"bytes":true,"length":5,"data":["ab"]})",
        R"({"dtype":"string","shape":[1],"bytes":true,"length":5,"data":["ab"]})");
    row("text of length 1 holding 3", R"({"length":1,"value":["abc"]})",
        R"({"dtype":"string","shape":[1],"length":1,"data":["abc"]})");
    row("scalar", R"({"dtype":"int32","shape":[],"data":[7]})",
        R"({"dtype":"int32","shape":[],"data":[7]})");
    row("empty", R"({"dtype":"float64","shape":[0,3],"data":[]})",
        R"({"dtype":"float64","shape":[0,3],"data":[]})");
    row("value with dtype", R"({"dtype":"int8","value":[[1,2],[3,4]]})",
        R"({"dtype":"int8","shape":[2,2],"data":[1,2,3,4]})");
    row("value with matching shape", R"({"shape":[2],"value":[1,2]})",
        R"({"dtype":"int32","shape":[2],"data":[1,2]})");
    row("value with nan strings", R"({"dtype":"float64","value":["nan",1]})",
        R"({"dtype":"float64","shape":[2],"data":["nan",1]})");
    row("uint16 extremes", R"({"dtype":"uint16","shape":[2],"data":[0,65535]})",
        R"({"dtype":"uint16","shape":[2],"data":[0,65535]})");
    row("uint32 extremes", R"({"dtype":"uint32","shape":[2],"data":[0,4294967295]})",
        R"({"dtype":"uint32","shape":[2],"data":[0,4294967295]})");
    row("uint64 beyond int64",
        R"({"dtype":"uint64","shape":[2],"data":[9223372036854775808,18446744073709551615]})",
        R"({"dtype":"uint64","shape":[2],"data":[9223372036854775808,18446744073709551615]})");
    // The nearest float16, written as the shortest decimal that reads back to it.
    row("float16 shortest",
        R"({"dtype":"float16","shape":[6],"data":[0.1,65504,-0.0,"nan",1e-7,2049]})",
        R"({"dtype":"float16","shape":[6],"data":[0.1,65500,-0,"nan",1e-07,2048]})");
    row("bfloat16 shortest", R"({"dtype":"bfloat16","shape":[3],"data":[0.1,3.3895314e38,"-inf"]})",
        R"({"dtype":"bfloat16","shape":[3],"data":[0.1,3.39e+38,"-inf"]})");
    row("complex64 pairs", R"({"dtype":"complex64","shape":[2],"data":[[0.1,-2],["nan","inf"]]})",
        R"({"dtype":"complex64","shape":[2],"data":[[0.1,-2],["nan","inf"]]})");
    row("complex128 value of pairs", R"({"dtype":"complex128","value":[[[1,2],[3,4]]]})",
        R"({"dtype":"complex128","shape":[1,2],"data":[[1,2],[3,4]]})");
    row("complex scalar value", R"({"dtype":"complex64","value":[1.5,-1]})",
        R"({"dtype":"complex64","shape":[],"data":[[1.5,-1]]})");
    row("rank 8", R"({"dtype":"int32","shape":[1,1,1,1,1,1,1,2],"data":[1,2]})",
        R"({"dtype":"int32","shape":[1,1,1,1,1,1,1,2],"data":[1,2]})");
}

void TestTensorJson::readsEveryDtype()
{
    QFETCH(QByteArray, request);
    QFETCH(QByteArray, written);
    const Tensor t = fromText(request.toStdString());
    QCOMPARE(::written(t), written.toStdString());
    // What we write reads back to the same bits.
    QVERIFY(fromText(::written(t)).identical(t));
}

void TestTensorJson::infersLikeTensorFlow_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("dtype");
    QTest::addColumn<QByteArray>("shape");
    QTest::newRow("scalar integer") << QByteArray("5") << "int32" << QByteArray("[]");
    QTest::newRow("integers") << QByteArray("[[1, 2], [3, 4]]") << "int32" << QByteArray("[2,2]");
    QTest::newRow("one float makes float32")
        << QByteArray("[1, 2.0]") << "float32" << QByteArray("[2]");
    QTest::newRow("an exponent makes float32")
        << QByteArray("[1e0]") << "float32" << QByteArray("[1]");
    QTest::newRow("booleans") << QByteArray("[true, false]") << "bool" << QByteArray("[2]");
    QTest::newRow("strings") << QByteArray("[[\"a0\"], [\"b1\"]]") << "string"
                             << QByteArray("[2,1]");
    QTest::newRow("empty list is float32") << QByteArray("[]") << "float32" << QByteArray("[0]");
    QTest::newRow("empty rows") << QByteArray("[[], []]") << "float32" << QByteArray("[2,0]");
    QTest::newRow("beyond int32 is int64")
        << QByteArray("[1, 2147483648]") << "int64" << QByteArray("[2]");
    QTest::newRow("rank 8") << QByteArray("[[[[[[[[1]]]]]]]]") << "int32"
                            << QByteArray("[1,1,1,1,1,1,1,1]");
}

void TestTensorJson::infersLikeTensorFlow()
{
    QFETCH(QByteArray, value);
    QFETCH(QString, dtype);
    QFETCH(QByteArray, shape);
    const Tensor t =
        parseTensorLiteral(value.toStdString(), std::nullopt, Limits::machineDefault());
    QCOMPARE(QString::fromUtf8(dtypeName(t.dtype()).data()), dtype);
    QCOMPARE(shapeString(t.shape()), shape.toStdString());
}

void TestTensorJson::refusesBadTensors_data()
{
    QTest::addColumn<QByteArray>("tensor");
    QTest::addColumn<QString>("message");
    auto row = [](const char* name, const std::string& tensor, const std::string& message) {
        QTest::newRow(name) << QByteArray::fromStdString(tensor) << QString::fromStdString(message);
    };
    row("not an object", R"([1,2])",
        "a tensor must be an object with dtype, shape and one of data, value, fill or npy; got a "
        "list");
    row("no content", R"({"dtype":"int32","shape":[1]})",
        "a tensor needs one of data, value, fill or npy");
    row("two contents", R"({"dtype":"int32","shape":[1],"data":[1],"value":[1]})",
        "a tensor takes only one of data, value, fill and npy; got data and value");
    row("unknown field", R"({"dtype":"int32","shape":[1],"data":[1],"bogus":1})",
        "unknown tensor field \"bogus\" (a tensor has dtype, shape, and one of data, value, fill "
        "or npy; strings may say bytes and length)");
    row("float16 beyond its range", R"({"dtype":"float16","shape":[1],"data":[65520]})",
        "data[0]: 65520 is out of range for float16 (largest 65504); write \"inf\" for infinity, "
        "or use float32");
    row("complex not a pair", R"({"dtype":"complex64","shape":[1],"data":[1]})",
        "data[0]: the complex64 tensor takes [real, imaginary] pairs, got 1");
    row("complex part not a number", R"({"dtype":"complex128","shape":[1],"data":[[1,true]]})",
        "data[0]: the complex128 tensor takes numbers, got true");
    row("complex value not pairs", R"({"dtype":"complex64","value":[[1,2,3]]})",
        "value[0]: the complex64 tensor takes [real, imaginary] pairs, got [1,2,3]");
    row("uint64 negative", R"({"dtype":"uint64","shape":[1],"data":[-1]})",
        "data[0]: -1 is out of range for uint64 [0, 18446744073709551615]");
    row("uint64 beyond 2^64", R"({"dtype":"uint64","shape":[1],"data":[18446744073709551616]})",
        "data[0]: 18446744073709551616 is out of range for uint64 [0, 18446744073709551615]");
    row("unknown dtype", R"({"dtype":"float8","shape":[1],"data":[1]})",
        "unknown dtype \"float8\" (the dtypes are bool, int8, uint8, int16, uint16, int32, uint32, "
        "int64, uint64, float16, bfloat16, float32, float64, complex64, complex128 and string)");
    row("dtype not a string", R"({"dtype":3,"shape":[1],"data":[1]})",
        "dtype must be a string, got a number");
    row("shape not a list", R"({"dtype":"int32","shape":3,"data":[1]})",
        "shape must be a list of non-negative integers, got a number");
    row("negative dimension", R"({"dtype":"int32","shape":[2,-1],"data":[]})",
        "shape[1] is -1; a dimension cannot be negative");
    row("float dimension", R"({"dtype":"int32","shape":[2.0],"data":[1,2]})",
        "shape[0] must be a non-negative integer, got 2.0");
    const std::string ones33 = QByteArray("1,").repeated(32).toStdString() + "1";
    row("rank 33", R"({"dtype":"int32","shape":[)" + ones33 + R"(],"data":[1]})",
        "shape [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,... has rank 33; tensors have rank 0 to 32");
    row("data without shape", R"({"dtype":"int32","data":[1]})", "data needs dtype and shape");
    row("data without dtype", R"({"shape":[1],"data":[1]})", "data needs dtype and shape");
    row("data too short", R"({"dtype":"int32","shape":[2,3],"data":[1,2,3,4,5]})",
        "data has 5 elements but shape [2,3] has 6");
    row("data not a list", R"({"dtype":"int32","shape":[1],"data":1})",
        "data must be a flat list of elements, got a number");
    row("nested data", R"({"dtype":"int32","shape":[2],"data":[[1],[2]]})",
        "data[0]: the int32 tensor takes integers, got [1]");
    row("int8 300", R"({"dtype":"int8","shape":[2],"data":[1,300]})",
        "data[1]: 300 is out of range for int8 [-128, 127]");
    row("uint8 -1", R"({"dtype":"uint8","shape":[1],"data":[-1]})",
        "data[0]: -1 is out of range for uint8 [0, 255]");
    row("int16 40000", R"({"dtype":"int16","shape":[1],"data":[40000]})",
        "data[0]: 40000 is out of range for int16 [-32768, 32767]");
    row("int32 2^40", R"({"dtype":"int32","shape":[1],"data":[1099511627776]})",
        "data[0]: 1099511627776 is out of range for int32 [-2147483648, 2147483647]");
    row("int64 2^63", R"({"dtype":"int64","shape":[1],"data":[9223372036854775808]})",
        "data[0]: 9223372036854775808 is out of range for int64 [-9223372036854775808, "
        "9223372036854775807]");
    row("float in an int tensor", R"({"dtype":"int32","shape":[1],"data":[1.5]})",
        "data[0]: 1.5 is not an integer (the tensor is int32)");
    row("1.0 in an int tensor", R"({"dtype":"int64","shape":[1],"data":[1.0]})",
        "data[0]: 1.0 is not an integer (the tensor is int64)");
    row("exponent in an int tensor", R"({"dtype":"int32","shape":[1],"data":[1e2]})",
        "data[0]: 100.0 is not an integer (the tensor is int32)");
    row("bool in an int tensor", R"({"dtype":"int32","shape":[1],"data":[true]})",
        "data[0]: the int32 tensor takes integers, got true");
    row("number in a bool tensor", R"({"dtype":"bool","shape":[1],"data":[1]})",
        "data[0]: the bool tensor takes true or false, got 1");
    row("number in a string tensor", R"({"dtype":"string","shape":[1],"data":[1]})",
        "data[0]: the string tensor takes strings, got 1");
    row("bytes of numbers", R"({"dtype":"int32","shape":[1],"bytes":true,"data":[1]})",
        "bytes is for string tensors, not int32");
    row("bytes not a bool", R"({"dtype":"string","shape":[1],"bytes":1,"data":["a"]})",
        "bytes must be true, false or \"latin-1\", got 1");
    row("bytes latin-1 past U+00FF",
        R"({"dtype":"string","shape":[2],"bytes":"latin-1","data":["a","\u0100"]})",
        "bytes \"latin-1\" holds code points up to U+00FF; string 1 holds one past it");
    row("bytes with a fill", R"({"dtype":"string","shape":[1],"bytes":true,"fill":"zeros"})",
        "bytes goes with data or value, not with fill");
    row("length of numbers", R"({"dtype":"int32","shape":[1],"length":4,"data":[1]})",
        "length is for string tensors, not int32");
    row("length -1", R"({"dtype":"string","shape":[1],"bytes":true,"length":-1,"data":["a"]})",
        "length must be an integer from 0 to 2147483647 (NumPy's longest bytes element), got -1");
    row("length past NumPy's text", R"({"length":536870912,"value":["a"]})",
        "length must be an integer from 0 to 536870911 (NumPy's longest text element), got "
        "536870912");
    row("length not a number", R"({"length":"5","value":["a"]})",
        "length must be an integer from 0 to 536870911 (NumPy's longest text element), got "
        "\"5\"");
    row("length with a fill", R"({"dtype":"string","shape":[1],"length":5,"fill":"zeros"})",
        "length goes with data or value, not with fill");
    row("word in a float tensor", R"({"dtype":"float32","shape":[1],"data":["NaN"]})",
        "data[0]: the float32 tensor takes numbers or the strings \"nan\", \"inf\", \"-inf\", got "
        "\"NaN\"");
    row("null in a float tensor", R"({"dtype":"float64","shape":[1],"data":[null]})",
        "data[0]: the float64 tensor takes numbers, got null");
    row("float32 overflow", R"({"dtype":"float32","shape":[1],"data":[1e39]})",
        "data[0]: 1e+39 is out of range for float32 (largest 3.4028235e+38); write \"inf\" for "
        "infinity, or use float64");
    row("ragged value", R"({"value":[[1,2],[3]]})",
        "ragged value: value[1] has 1 elements where 2 were expected");
    row("ragged value, list where a number was", R"({"value":[[1],[[2]]]})",
        "ragged value: value[1][0] is a list where a single element was expected");
    row("ragged value, number where a list was", R"({"value":[[1],2]})",
        "ragged value: value[1] is a number where a list of 1 was expected");
    row("value mixes strings and numbers", R"({"value":[1,"nan"]})",
        "the value mixes strings with numbers or booleans; give a dtype (a float dtype reads "
        "\"nan\", \"inf\" and \"-inf\" as numbers)");
    row("value mixes booleans and numbers", R"({"value":[true,1]})",
        "the value mixes booleans and numbers; give a dtype");
    row("value too deep", R"({"value":)" + std::string(33, '[') + "1" + std::string(33, ']') + "}",
        "the value nests lists more than 32 deep; tensors have rank 0 to 32");
    row("value element out of range", R"({"dtype":"uint8","value":[[1],[256]]})",
        "value[1][0]: 256 is out of range for uint8 [0, 255]");
    row("value beyond int64", R"({"value":[99999999999999999999]})",
        "value[0]: 1e+20 is out of range for int64 [-9223372036854775808, 9223372036854775807]");
    row("value float32 overflow", R"({"value":[1e39]})",
        "value[0]: 1e+39 is out of range for float32 (largest 3.4028235e+38); write \"inf\" for "
        "infinity, or use float64");
    row("value and shape disagree", R"({"shape":[2,2],"value":[1,2,3,4]})",
        "shape [2,2] does not match the value's shape [4]");
    row("null value", R"({"value":null})", "value: the float32 tensor takes numbers, got null");
    row("fill without dtype", R"({"shape":[2],"fill":"zeros"})", "fill needs dtype and shape");
    row("unknown fill", R"({"dtype":"int32","shape":[2],"fill":"linspace"})",
        "fill must be \"arange\", \"zeros\", \"ones\" or \"random\", got \"linspace\"");
    row("seed with arange", R"({"dtype":"int32","shape":[2],"fill":"arange","seed":1})",
        "seed goes with fill \"random\", not \"arange\": arange has nothing to seed; remove the "
        "seed");
    row("seed with data", R"({"dtype":"int32","shape":[1],"data":[1],"seed":1})",
        "seed goes with fill \"random\", not with data");
    row("negative seed", R"({"dtype":"int32","shape":[2],"fill":"random","seed":-1})",
        "seed must be a non-negative integer, got -1");
    row("npy not a string", R"({"npy":1})", "npy must be a file path, got a number");
    row("npy missing", R"({"npy":"/nonexistent/x.npy"})",
        "cannot read '/nonexistent/x.npy': No such file or directory");
}

void TestTensorJson::refusesBadTensors()
{
    QFETCH(QByteArray, tensor);
    QFETCH(QString, message);
    try {
        fromText(tensor.toStdString());
        QFAIL("no error");
    } catch (const OpError& e) {
        QCOMPARE(errorCodeName(e.code()), std::string_view("bad_request"));
        QCOMPARE(QString::fromStdString(e.what()), message);
    }
}

void TestTensorJson::checksTheLimitBeforeAllocating_data()
{
    QTest::addColumn<QByteArray>("tensor");
    QTest::addColumn<qint64>("maxElements");
    const qint64 machine = Limits::machineDefault().maxElements;
    QTest::newRow("fill of 10^12 elements")
        << QByteArray(R"({"dtype":"float32","shape":[1000000,1000000],"fill":"zeros"})") << machine;
    QTest::newRow("data claiming 10^12 elements")
        << QByteArray(R"({"dtype":"int8","shape":[1000000,1000000],"data":[]})") << machine;
    QTest::newRow("shape whose count overflows int64")
        << QByteArray(R"({"dtype":"int8","shape":[4294967296,4294967296],"data":[1]})") << machine;
    // Issue 25: a 0 among sizes that multiply past int64 makes no empty tensor (NumPy: "array is
    // too big"); the GUI aborted on such a shape.
    QTest::newRow("fill of an overflowing shape with a 0")
        << QByteArray(R"({"dtype":"int8","shape":[4294967296,4294967296,0],"fill":"zeros"})")
        << machine;
    QTest::newRow("data of an overflowing shape with a 0")
        << QByteArray(
               R"({"dtype":"int8","shape":[0,4611686018427387904,4611686018427387904],"data":[]})")
        << machine;
    QTest::newRow("data over a small limit")
        << QByteArray(R"({"dtype":"int32","shape":[3,4],"data":[0,1,2,3,4,5,6,7,8,9,10,11]})")
        << qint64(10);
    QTest::newRow("value over a small limit")
        << QByteArray(R"({"value":[[1,2,3],[4,5,6]]})") << qint64(5);
    QTest::newRow("fill over a small limit")
        << QByteArray(R"({"dtype":"bool","shape":[11],"fill":"ones"})") << qint64(10);
}

void TestTensorJson::checksTheLimitBeforeAllocating()
{
    QFETCH(QByteArray, tensor);
    QFETCH(qint64, maxElements);
    Limits limits = Limits::machineDefault();
    limits.maxElements = maxElements;
    const std::clock_t started = std::clock();
    try {
        fromText(tensor.toStdString(), limits);
        QFAIL("no error");
    } catch (const OpError& e) {
        QCOMPARE(errorCodeName(e.code()), std::string_view("resource_exhausted"));
    }
    QVERIFY(cpuMs(started) < 500); // answered at once: nothing was allocated or filled
}

void TestTensorJson::fillsInsideTheEngine()
{
    const Limits limits = Limits::machineDefault();
    for (const auto& [name, fill] : {std::pair{"arange", Fill::Arange},
                                     {"zeros", Fill::Zeros},
                                     {"ones", Fill::Ones},
                                     {"random", Fill::Random}}) {
        const Tensor t = fromText(std::string(R"({"dtype":"float32","shape":[3,4],"fill":")") +
                                  name + (fill == Fill::Random ? R"(","seed":42})" : R"("})"));
        QVERIFY(t.identical(makeFilled(DType::Float32, {3, 4}, fill, 42, limits)));
    }
    // The same seed gives the same tensor; another seed another one.
    const Tensor a = fromText(R"({"dtype":"int32","shape":[50],"fill":"random","seed":7})");
    const Tensor b = fromText(R"({"dtype":"int32","shape":[50],"fill":"random","seed":7})");
    const Tensor c = fromText(R"({"dtype":"int32","shape":[50],"fill":"random","seed":8})");
    QVERIFY(a.identical(b));
    QVERIFY(!a.identical(c));
}

void TestTensorJson::readsNpyPaths()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("x.npy").toStdString();
    const Tensor t = makeFilled(DType::Int16, {2, 3}, Fill::Arange, 0, Limits::machineDefault());
    writeNpyFile(path, t);
    QVERIFY(fromText(R"({"npy":")" + path + R"("})").identical(t));
    QVERIFY(fromText(R"({"npy":")" + path + R"(","dtype":"int16","shape":[2,3]})").identical(t));
    try {
        fromText(R"({"npy":")" + path + R"(","dtype":"int32"})");
        QFAIL("no error");
    } catch (const OpError& e) {
        QCOMPARE(std::string(e.what()), "dtype is int32 but " + path + " holds int16");
    }
    try {
        fromText(R"({"npy":")" + path + R"(","shape":[3,2]})");
        QFAIL("no error");
    } catch (const OpError& e) {
        QCOMPARE(std::string(e.what()),
                 std::string("shape [3,2] does not match the npy's shape [2,3]"));
    }
    // A file's strings keep their length ('|S5' of 2-byte elements), which the file says.
    Tensor strings = parseTensorLiteral(R"(["ab", "c"])", std::nullopt, Limits{});
    strings.setHoldsBytes(true);
    strings.setItemLength(5);
    const std::string stringPath = dir.filePath("s.npy").toStdString();
    writeNpyFile(stringPath, strings);
    QCOMPARE(fromText(R"({"npy":")" + stringPath + R"("})").itemLength(), 5);
    try {
        fromText(R"({"npy":")" + stringPath + R"(","length":5})");
        QFAIL("no error");
    } catch (const OpError& e) {
        QCOMPARE(std::string(e.what()),
                 std::string("length goes with data or value: an npy file says how long its "
                             "strings are"));
    }
}

void TestTensorJson::floatsRoundTripExactly()
{
    std::mt19937_64 random(99);
    const Limits limits = Limits::machineDefault();
    Tensor f = Tensor::empty(DType::Float32, {20000}, limits);
    Tensor d = Tensor::empty(DType::Float64, {20000}, limits);
    for (std::int64_t i = 0; i < 20000; ++i) {
        const auto bits32 = std::uint32_t(random());
        const std::uint64_t bits64 = random();
        std::memcpy(&f.data<float>()[i], &bits32, 4);
        std::memcpy(&d.data<double>()[i], &bits64, 8);
    }
    f.data<float>()[0] = -0.0f;
    d.data<double>()[0] = -0.0;
    for (const Tensor& t : {f, d}) {
        const Tensor back = fromText(written(t));
        QCOMPARE(back.dtype(), t.dtype());
        for (std::int64_t i = 0; i < t.size(); ++i) {
            const double a = t.doubleAt(i), b = back.doubleAt(i);
            if (std::isnan(a))
                QVERIFY(std::isnan(b)); // JSON has one NaN: "nan"
            else
                QVERIFY2(
                    std::memcmp(static_cast<const char*>(t.raw()) + i * dtypeSize(t.dtype()),
                                static_cast<const char*>(back.raw()) + i * dtypeSize(t.dtype()),
                                std::size_t(dtypeSize(t.dtype()))) == 0,
                    qPrintable(QString::number(i)));
        }
    }
}

void TestTensorJson::int64RoundTripsExactly()
{
    const Tensor t = Tensor::fromInts(DType::Int64, {4},
                                      {std::numeric_limits<std::int64_t>::min(), -9007199254740993,
                                       9007199254740993, std::numeric_limits<std::int64_t>::max()});
    QVERIFY(fromText(written(t)).identical(t));
}

void TestTensorJson::writesSummaries()
{
    std::string out;
    JsonWriter w(out);
    w.beginArray();
    writeTensorSummary(w, fromText(R"({"dtype":"uint8","shape":[2,2],"data":[1,2,3,255]})"));
    writeTensorSummary(w, fromText(R"({"dtype":"string","shape":[1],"data":["a"]})"));
    w.endArray();
    // 1*1 + 2*3 + 3*5 + 255*7 = 1807 = 0x70f
    QCOMPARE(out, std::string(
                      R"([{"dtype":"uint8","shape":[2,2],"size":4,"checksum":"000000000000070f"},)"
                      R"({"dtype":"string","shape":[1],"size":1}])"));
}

// The checksum formula computed independently by NumPy on the same elements.
void TestTensorJson::checksumMatchesNumpy()
{
    const Limits limits = Limits::machineDefault();
    QByteArray input;
    std::vector<std::string> ours;
    int seed = 1;
    for (const DType t : kAllDTypes) {
        if (t == DType::String || t == DType::BFloat16) continue; // NumPy has neither
        for (const Shape& shape : {Shape{}, Shape{0}, Shape{5}, Shape{3, 7, 11}}) {
            Tensor x = makeFilled(t, shape, Fill::Random, std::uint64_t(seed++), limits);
            if (t == DType::Int64 && x.size() > 0)
                x.data<std::int64_t>()[0] = std::numeric_limits<std::int64_t>::min();
            if (t == DType::Int8 && x.size() > 0)
                x.data<std::int8_t>()[0] = -1; // zero-extended: 0xff, not sign-extended
            if (t == DType::Float32 && x.size() > 1)
                x.data<float>()[1] = -std::numeric_limits<float>::infinity();
            ours.push_back(checksumHex(*tensorChecksum(x)));
            input += QByteArray(dtypeName(t).data()) + " " +
                     QByteArray::fromStdString(shapeString(shape)) + " " +
                     QByteArray::fromStdString(written(x)) + "\n";
        }
    }
    const QString script = QStringLiteral(R"(
import sys, json, numpy as np
for line in sys.stdin:
    dtype, shape, tensor = line.split(' ', 2)
    t = json.loads(tensor)
    number = lambda v: float(v) if isinstance(v, str) else v
    data = [complex(number(v[0]), number(v[1])) if isinstance(v, list) else number(v)
            for v in t['data']]
    a = np.array(data, dtype=dtype).reshape(t['shape']).ravel()
    if a.dtype.itemsize == 16:  # complex128: bits(real) + bits(imag) * (2^32 + 1)
        halves = a.view(np.uint64).reshape(-1, 2)
        bits = halves[:, 0] + halves[:, 1] * np.uint64(2**32 + 1)
    else:
        width = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
        bits = a.view(width).astype(np.uint64)
    weights = (2 * np.arange(a.size, dtype=np.uint64) + np.uint64(1))
    print('%016x' % int((bits * weights).sum(dtype=np.uint64)))
)");
    const QList<QByteArray> theirs = runNumpy(script, input).trimmed().split('\n');
    QCOMPARE(theirs.size(), qsizetype(ours.size()));
    for (std::size_t k = 0; k < ours.size(); ++k)
        QCOMPARE(ours[k], theirs[qsizetype(k)].toStdString());
}

void TestTensorJson::literalErrorsCarryPositions()
{
    try {
        parseTensorLiteral("[[1, 2], [3, 4]", std::nullopt, Limits::machineDefault());
        QFAIL("no error");
    } catch (const OpError& e) {
        QCOMPARE(e.code(), ErrorCode::BadRequest);
        QCOMPARE(e.position().value_or(-1), 15);
    }
    const Tensor t =
        parseTensorLiteral("[[1, 2], [3, 4]]", DType::Float64, Limits::machineDefault());
    QCOMPARE(written(t), std::string(R"({"dtype":"float64","shape":[2,2],"data":[1,2,3,4]})"));
}

void TestTensorJson::checksumOnWorkersIsTheSame_data()
{
    QTest::addColumn<int>("dtype");
    QTest::addColumn<qint64>("size");
    // From 2^20 elements the sum is split in chunks over the workers: sizes around that, and
    // one whose chunks do not come out even.
    QTest::newRow("float32, just below the split") << int(DType::Float32) << qint64((1 << 20) - 1);
    QTest::newRow("float32, 2^21 + 3") << int(DType::Float32) << qint64((1 << 21) + 3);
    QTest::newRow("int8, 3 x 2^20 + 1") << int(DType::Int8) << qint64((3 << 20) + 1);
    QTest::newRow("int64, 2^20 + 17") << int(DType::Int64) << qint64((1 << 20) + 17);
    QTest::newRow("bool, 2^22") << int(DType::Bool) << qint64(1 << 22);
}

void TestTensorJson::checksumOnWorkersIsTheSame()
{
    QFETCH(int, dtype);
    QFETCH(qint64, size);
    const Tensor x = makeFilled(DType(dtype), {size}, Fill::Random, 11, Limits::machineDefault());
    QCOMPARE(checksumHex(*tensorChecksum(x, &testExecutor())), checksumHex(*tensorChecksum(x)));
    std::string serial, parallel;
    JsonWriter a(serial), b(parallel);
    writeTensorSummary(a, x);
    writeTensorSummary(b, x, &testExecutor());
    QCOMPARE(parallel, serial);
}

QTEST_APPLESS_MAIN(TestTensorJson)
#include "tst_tensor_json.moc"
