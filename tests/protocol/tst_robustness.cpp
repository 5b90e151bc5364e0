// SPDX-License-Identifier: GPL-3.0-or-later
// Thousands of broken request lines (truncated, mutated, random bytes, huge numbers, deep
// nesting) through the request handler and the run loop: every line gets exactly one valid
// response line, nothing crashes, and errors carry a protocol code.
#include "protocol_test.h"

#include <QTest>

#include <ctime>
#include <random>
#include <set>
#include <sstream>

using namespace ss;
using namespace ss::testing;

// Milliseconds of processor time this process used since `started` (every thread): a guard
// against work that grows too fast, which other processes on a loaded machine cannot fail.
static long cpuMs(std::clock_t started)
{
    return long((std::clock() - started) * 1000 / CLOCKS_PER_SEC);
}

namespace {

const std::vector<std::string> kSeeds = {
    R"({"id":1,"op":"strided_slice","inputs":{"input":{"dtype":"int32","shape":[3,2,3],"data":[1,1,1,2,2,2,3,3,3,4,4,4,5,5,5,6,6,6]}},"attrs":{"begin":[1,-1,0],"end":[2,-3,3],"strides":[1,-1,1]},"trace":true,"sources":true})",
    R"({"id":"g","op":"getitem","inputs":{"input":{"dtype":"float32","shape":[4,5,6],"fill":"random","seed":3}},"attrs":{"expr":"x[1, 2:4, None, ..., ::-1]"},"emit":"summary","timing":true})",
    R"({"id":[3],"op":"slice","inputs":{"input":{"value":[[1,2,3],[4,5,6]]}},"attrs":{"begin":[0,1],"size":[-1,2]},"sources":true})",
    R"({"id":4,"op":"paddle_strided_slice","inputs":{"input":{"dtype":"int64","shape":[6],"fill":"arange"}},"attrs":{"axes":[0],"starts":[-1],"ends":[-100],"strides":[-2]}})",
    R"({"id":5,"op":"concat","inputs":{"values":[{"value":["a","b"]},{"value":["c"]}]},"attrs":{"axis":0},"emit":"none","sources":true})",
    R"({"id":6,"op":"encode","attrs":{"expr":"x[..., None, 0:1:2]"}})",
    R"({"id":7,"op":"gather","inputs":{"params":{"dtype":"float64","value":[1.5,"nan",3]},"indices":{"value":[2,0]}}})",
    R"({"id":8,"op":"pad","inputs":{"tensor":{"dtype":"bool","shape":[2],"data":[true,false]}},"attrs":{"paddings":[[1,1]],"mode":"symmetric"}})",
    R"({"id":9,"op":"to_expr","attrs":{"begin":[0,1],"end":[0,0],"strides":[1,2],"begin_mask":1,"end_mask":3}})",
};

const std::set<std::string> kCodes = {"bad_request",  "parse_error",        "invalid_argument",
                                      "out_of_range", "resource_exhausted", "unimplemented"};

std::string mutate(const std::string& seed, std::mt19937& random)
{
    auto pick = [&](std::size_t n) { return std::size_t(random() % std::max<std::size_t>(n, 1)); };
    static const std::string alphabet = "{}[]\",:0123456789.eE+- truefalsnul\\u/x";
    static const std::vector<std::string> numbers = {"1e400",
                                                     "-1e400",
                                                     "99999999999999999999999",
                                                     "-9223372036854775809",
                                                     "1e-400",
                                                     "-0",
                                                     "2147483648",
                                                     "9223372036854775807",
                                                     "0.5",
                                                     "1e39",
                                                     "-1",
                                                     "4294967296"};
    std::string s = seed;
    switch (random() % 9) {
    case 0: // truncated
        s.resize(pick(s.size()));
        break;
    case 1: // one byte replaced by anything
        s[pick(s.size())] = char(random() % 256);
        break;
    case 2: // JSON-ish characters inserted
        for (int k = 0, n = 1 + int(random() % 4); k < n; ++k)
            s.insert(pick(s.size() + 1), 1, alphabet[pick(alphabet.size())]);
        break;
    case 3: { // a range deleted
        const std::size_t at = pick(s.size());
        s.erase(at, pick(20));
        break;
    }
    case 4: { // a range duplicated
        const std::size_t at = pick(s.size());
        s.insert(at, s.substr(at, pick(30)));
        break;
    }
    case 5: { // a number replaced by an extreme one
        const std::size_t at = s.find_first_of("0123456789", pick(s.size()));
        if (at != std::string::npos) s.replace(at, 1, numbers[pick(numbers.size())]);
        break;
    }
    case 6: { // random bytes
        s.assign(pick(200), '\0');
        for (char& c : s)
            c = char(random() % 256);
        break;
    }
    case 7: { // deep JSON nesting where a value starts (deep subscripts: see below)
        const std::size_t depth = 1 + pick(100000);
        const char* keys[] = {"", "\"id\":", "\"inputs\":", "\"attrs\":"};
        const std::string key = keys[pick(4)];
        const std::size_t at = key.empty() ? 0 : s.find(key);
        if (at != std::string::npos)
            s.insert(at + key.size(), std::string(depth, random() % 2 ? '[' : '{'));
        break;
    }
    default: { // a value nested more deeply than any tensor may be
        const std::size_t at = s.find("\"value\":");
        if (at != std::string::npos) s.insert(at + 8, std::string(9 + pick(20), '['));
        break;
    }
    }
    for (char& c : s) // one request per line
        if (c == '\n') c = ' ';
    return s;
}

} // namespace

class TestRobustness : public QObject
{
    Q_OBJECT

private slots:
    void everyLineGetsOneValidResponse();
    void theRunLoopAnswersEveryLine();
    void deeplyNestedSubscriptsAreRefused();
};

void TestRobustness::everyLineGetsOneValidResponse()
{
    Limits limits = Limits::machineDefault();
    limits.maxElements = 1 << 20; // mutated shapes stay cheap
    RequestHandler handler(testExecutor(), limits);
    std::mt19937 random(12345);
    std::map<std::string, int> codes;
    const std::clock_t started = std::clock();
    for (int k = 0; k < 5000; ++k) {
        const std::string line = k < int(kSeeds.size())
                                     ? kSeeds[std::size_t(k)]
                                     : mutate(kSeeds[random() % kSeeds.size()], random);
        const std::string response = handler.handleLine(line);
        QVERIFY2(response.find('\n') == std::string::npos, line.c_str());
        Json r;
        try {
            r = parseJson(response);
        } catch (const OpError&) {
            QFAIL(qPrintable(QString::fromStdString("response is not JSON: " + response)));
        }
        QVERIFY(r.isObject());
        QVERIFY(r.find("id"));
        QVERIFY(r.find("ok") && r.find("ok")->isBool());
        const bool ok = r.find("ok")->toBool();
        if (k < int(kSeeds.size()))
            QVERIFY2(ok, response.c_str()); // the seeds themselves are valid
        const std::string code = ok ? "ok" : errorCode(r);
        QVERIFY2(ok || (kCodes.count(code) && !errorMessage(r).empty()), response.c_str());
        ++codes[code];
    }
    // The mutations reach the different layers, not just the JSON parser.
    QVERIFY(codes["ok"] > 100);
    QVERIFY(codes["bad_request"] > 1000);
    QVERIFY(codes["invalid_argument"] + codes["out_of_range"] + codes["parse_error"] > 10);
    QVERIFY2(cpuMs(started) < 20000, "too slow");
}

void TestRobustness::theRunLoopAnswersEveryLine()
{
    std::mt19937 random(777);
    std::string input;
    int requests = 0;
    for (int k = 0; k < 2000; ++k) {
        const std::string line = mutate(kSeeds[random() % kSeeds.size()], random);
        input += line + "\n";
        requests += line.find_first_not_of(" \t\r") != std::string::npos;
    }
    Limits limits = Limits::machineDefault();
    limits.maxElements = 1 << 20;
    RequestHandler handler(testExecutor(), limits);
    std::istringstream in(input);
    std::ostringstream out;
    QCOMPARE(runJsonLines(in, out, handler), 0);
    std::istringstream responses(out.str());
    int count = 0;
    for (std::string line; std::getline(responses, line); ++count)
        QVERIFY(parseJson(line).find("ok"));
    QCOMPARE(count, requests);
}

// A subscript is parsed by recursion in the core; nesting must be limited there (CPython stops at
// 200 levels) instead of exhausting the worker's stack.
void TestRobustness::deeplyNestedSubscriptsAreRefused()
{
    for (const std::size_t depth : {std::size_t(1000), std::size_t(100000)}) {
        const std::string expr = "x" + std::string(depth, '[') + std::string(depth, ']');
        for (const std::string& line :
             {R"({"op":"encode","attrs":{"expr":")" + expr + R"("}})",
              R"({"op":"getitem","inputs":{"input":{"value":[1]}},"attrs":{"expr":")" + expr +
                  R"("}})"}) {
            const std::string code = errorCode(respond(line));
            QVERIFY2(code == "parse_error" || code == "invalid_argument", code.c_str());
        }
    }
}

QTEST_APPLESS_MAIN(TestRobustness)
#include "tst_robustness.moc"
