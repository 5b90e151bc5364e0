// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/workspacefile.h"

#include "core/error.h"
#include "core/mapped_file.h"
#include "protocol/atomic_file.h"
#include "protocol/npy.h"
#include "protocol/read_file.h"
#include "protocol/request.h"
#include "protocol/tensor_json.h"
#include "ui/model/attrtext.h"

#include <QFile>
#include <QFileInfo>

namespace ss::ui {

namespace {

std::string quoted(const std::string& s)
{
    return "'" + s + "'";
}

const std::string& requireString(const Json& json, const std::string& what)
{
    if (!json.isString())
        badRequest(what + " must be a string, not " + std::string(json.typeName()));
    return json.toString();
}

// The protocol has read and checked the tensor object; the workspace keeps a literal or a fill
// as the user described it, and the rest as cells.
InputSource sourceFromSpec(const TensorSpec& spec)
{
    InputSource source;
    switch (spec.kind) {
    case TensorSpec::Kind::Data:
    case TensorSpec::Kind::Npy: return dataSource(spec.tensor);
    case TensorSpec::Kind::Value:
        source.fill = FillKind::Literal;
        source.dtype = spec.dtype;
        try {
            source.literal = attrText(attrFromJson(spec.value, "value"));
        } catch (const OpError&) {
            // An integer beyond int64 in a float literal: no attribute holds it, the JSON does.
            std::string text;
            JsonWriter(text).value(spec.value);
            source.literal = QString::fromStdString(text);
        }
        source.shape.clear();
        return source;
    case TensorSpec::Kind::Fill: break;
    }
    source.dtype = spec.dtype;
    source.shape = spec.shape.value_or(Shape{});
    switch (spec.fill) {
    case Fill::Arange: source.fill = FillKind::Arange; break;
    case Fill::Zeros: source.fill = FillKind::Zeros; break;
    case Fill::Ones: source.fill = FillKind::Ones; break;
    case Fill::Random: source.fill = FillKind::Random; break;
    }
    source.seed = spec.seed;
    return source;
}

void writeSource(JsonWriter& w, const InputSource& source, const std::string& name)
{
    if (source.fill == FillKind::Data) {
        // A file changed since it was opened no longer holds what the window shows: neither its
        // elements nor its name are written. An input mapped from a .npy of more than
        // kMappedInputEmbedBytes is written as the file: a workspace (and every autosave) of a
        // file bigger than memory would not fit in memory as text. Smaller ones are written as
        // their elements, as every other input, so that the workspace holds its data.
        if (const void* data = source.data.raw()) {
            const std::int64_t bytes =
                std::int64_t(source.data.size()) * dtypeSize(source.data.dtype());
            if (const auto path = mappedFilePath(data, bytes)) {
                if (const auto problem = mappedFileProblem(data)) badRequest(*problem);
                if (bytes > kMappedInputEmbedBytes) {
                    w.beginObject();
                    w.key("npy");
                    w.value(QFile::encodeName(
                                QFileInfo(QFile::decodeName(path->c_str())).absoluteFilePath())
                                .toStdString());
                    w.endObject();
                    return;
                }
            }
        }
        writeTensor(w, source.data);
        return;
    }
    w.beginObject();
    if (source.dtype) {
        w.key("dtype");
        w.value(std::string(dtypeName(*source.dtype)));
    }
    if (source.fill == FillKind::Literal) {
        w.key("value");
        try {
            w.value(parseJson(source.literal.toStdString()));
        } catch (const OpError& e) {
            badRequest("input " + quoted(name) + ": the literal is not finished: " + e.what());
        }
    } else {
        w.key("shape");
        w.beginArray();
        for (std::int64_t size : source.shape)
            w.value(size);
        w.endArray();
        w.key("fill");
        w.value(fillKindName(source.fill).toStdString());
        if (source.fill == FillKind::Random) {
            w.key("seed");
            w.value(std::int64_t(source.seed));
        }
    }
    w.endObject();
}

} // namespace

Workspace workspaceFromJson(const Json& request, const Limits& limits, Expectation* expectation)
{
    // The protocol's reader, so that what opens here `slicescope-cli run` answers, and back.
    const RequestSpec spec = requestSpecFromJson(request, limits);
    Workspace ws;
    ws.op = spec.op->name;
    ws.attrs = spec.attrs;
    ws.framework = spec.framework; // a file from before the selector reads as TensorFlow
    ws.inputs.clear();
    for (const auto& list : spec.inputs) {
        std::vector<InputSource> sources;
        for (const TensorSpec& tensor : list)
            sources.push_back(sourceFromSpec(tensor));
        ws.inputs.push_back(std::move(sources));
    }
    // The id is the caller's to fill as it likes (the protocol echoes any value): the GUI takes
    // the members it writes when they are text, and leaves anything else alone.
    if (const Json* id = &spec.id; id->isObject()) {
        if (const Json* title = id->find("title"); title && title->isString())
            ws.title = QString::fromStdString(title->toString());
        if (const Json* text = id->find("explanation"); text && text->isString())
            ws.explanation = QString::fromStdString(text->toString());
        if (const Json* expect = id->find("expect"); expect && expectation) {
            if (const Json* error = expect->find("error"))
                expectation->errorCode = requireString(*error, "expect.error");
            if (const Json* outputs = expect->find("outputs"); outputs && outputs->isArray())
                for (const Json& t : outputs->toArray())
                    expectation->outputs.push_back(tensorFromJson(t, limits));
            if (const Json* shapes = expect->find("shapes"); shapes && shapes->isArray())
                for (const Json& shape : shapes->toArray()) {
                    Shape sizes;
                    for (const Json& size : shape.isArray() ? shape.toArray() : Json::Array{})
                        sizes.push_back(size.isInt64() ? size.toInt64() : -1);
                    expectation->shapes.push_back(std::move(sizes));
                }
        }
    }
    return ws;
}

std::string workspaceToJson(const Workspace& ws)
{
    const OpDef* def = findOp(ws.op);
    if (!def) badRequest("unknown op " + quoted(ws.op));
    std::string out;
    JsonWriter w(out);
    w.beginObject();
    w.key("id");
    w.beginObject();
    w.key("workspace");
    w.value("slicescope");
    if (!ws.title.isEmpty()) {
        w.key("title");
        w.value(ws.title.toStdString());
    }
    if (!ws.explanation.isEmpty()) {
        w.key("explanation");
        w.value(ws.explanation.toStdString());
    }
    w.endObject();
    w.key("op");
    w.value(ws.op);
    w.key("inputs");
    w.beginObject();
    for (std::size_t k = 0; k < def->inputs.size() && k < ws.inputs.size(); ++k) {
        const InputDef& in = def->inputs[k];
        w.key(in.name);
        if (in.isList) w.beginArray();
        for (const InputSource& source : ws.inputs[k])
            writeSource(w, source, in.name);
        if (in.isList) w.endArray();
    }
    w.endObject();
    w.key("attrs");
    w.beginObject();
    for (const auto& [name, value] : ws.attrs) {
        w.key(name);
        writeAttr(w, value);
    }
    w.endObject();
    if (ws.framework != Framework::TensorFlow) {
        w.key("framework");
        w.value(std::string(frameworkModel(ws.framework).key()));
    }
    w.key("trace");
    w.value(true);
    w.endObject();
    return out;
}

Workspace readWorkspaceFile(const QString& path, const Workspace& current, const Limits& limits,
                            QString* note)
{
    checkPath(path); // before the name is taken from it: a NUL would cut the name short
    // The readers' errors name the file already ("'/tmp/x.npy': not a .npy file"); what is
    // wrong with its contents is said with the file's name in front.
    const auto named = [&path](auto&& read) {
        try {
            return read();
        } catch (const OpError& e) {
            throw OpError(e.code(), QFileInfo(path).fileName().toStdString() + ": " + e.what());
        }
    };
    if (path.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive)) {
        Tensor data = readNpyFile(QFile::encodeName(path).toStdString(), limits);
        return named([&] {
            Workspace ws = current;
            if (ws.inputs.empty() || ws.inputs.front().empty()) ws = Workspace{};
            ws.inputs.front().front() = dataSource(std::move(data));
            return fitSpecToFile(ws, limits, note);
        });
    }
    // A workspace is one request line: the CLI's limit on those is the limit here too.
    const std::string bytes =
        readRegularFile(QFile::encodeName(path).toStdString(), maxRequestLineBytes(limits));
    return named([&] { return workspaceFromJson(parseJson(bytes), limits); });
}

std::string workspaceFileText(const Workspace& workspace)
{
    return workspaceToJson(workspace) + '\n';
}

void writeWorkspaceFile(const QString& path, const Workspace& workspace)
{
    const std::string text = workspaceFileText(workspace);
    const std::string why = writeFileAtomically(path, text);
    if (!why.empty())
        badRequest("cannot write " + QFileInfo(path).fileName().toStdString() + ": " + why);
}

} // namespace ss::ui
