// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/automation.h"

#include "core/error.h"
#include "protocol/json.h"
#include "protocol/read_file.h"
#include "protocol/request.h"
#include "protocol/shape_text.h"
#include "protocol/tensor_json.h"
#include "ui/editors/frameworkselector.h"
#include "ui/editors/inputpanel.h"
#include "ui/editors/opeditor.h"
#include "ui/editors/speceditor.h"
#include "ui/model/engineclient.h"
#include "ui/model/lessons.h"
#include "ui/views/picturewriter.h"
#include "ui/views/plaintext.h"
#include "ui/views/readorderanimation.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/decodestepper.h"
#include "ui/workbench/imageexporter.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/presentationmode.h"
#include "ui/workbench/workspacedocument.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QSocketNotifier>
#include <QSpinBox>
#include <QUndoStack>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <unistd.h>
#include <utility>

namespace ss::ui {

namespace {

/// A line longer than this is refused (and skipped to its end) rather than buffered.
constexpr qsizetype kMaxLineBytes = qsizetype(64) << 20;
constexpr int kDefaultWaitMs = 30000;
constexpr int kPollMs = 5;
/// `state` lists output elements up to this many per output unless told otherwise; the
/// checksum is always there.
constexpr std::int64_t kDefaultMaxElements = 1000;
constexpr std::int64_t kDefaultMaxCells = 1000;

const Json& member(const Json& command, std::string_view key)
{
    const Json* value = command.find(key);
    if (!value) badRequest("missing \"" + std::string(key) + "\"");
    return *value;
}

std::string stringMember(const Json& command, std::string_view key)
{
    const Json& value = member(command, key);
    if (!value.isString())
        badRequest("\"" + std::string(key) + "\" must be a string, not " +
                   std::string(value.typeName()));
    return value.toString();
}

/// A file path: a NUL byte in it would end the C path early and name another file.
QString pathMember(const Json& command, std::string_view key)
{
    const std::string path = stringMember(command, key);
    checkPath(path);
    return QString::fromStdString(path);
}

std::int64_t intMember(const Json& command, std::string_view key, std::int64_t fallback)
{
    const Json* value = command.find(key);
    if (!value) return fallback;
    if (!value->isInt64())
        badRequest("\"" + std::string(key) + "\" must be an integer, not " +
                   std::string(value->typeName()));
    return value->toInt64();
}

/// A value as a person would type it into a field: strings as they are, anything else as JSON.
QString fieldText(const Json& value)
{
    if (value.isString()) return QString::fromStdString(value.toString());
    std::string text;
    JsonWriter(text).value(value);
    return QString::fromStdString(text);
}

int slotOf(const Json& command, const MainWindow& window)
{
    const std::int64_t slot = intMember(command, "slot", 0);
    const int count = window.inputPanel()->slotCount();
    if (slot < 0 || slot >= count)
        invalidArgument("input slot " + std::to_string(slot) + " does not exist: this op has " +
                        std::to_string(count) + " input tensor(s)");
    return int(slot);
}

/// The fields of input slot `slot` (checked by slotOf).
InputControls* controlsOf(const MainWindow& window, int slot)
{
    return window.inputPanel()->controls(slot);
}

void selectData(QComboBox* box, const QVariant& data, const std::string& what)
{
    const int index = box->findData(data);
    if (index < 0) badRequest(what);
    box->setCurrentIndex(index);
}

void writeShape(JsonWriter& out, const Shape& shape)
{
    out.array(shape.data(), std::int64_t(shape.size()));
}

void writeUndo(JsonWriter& out, const QUndoStack& undo)
{
    out.key("undo");
    out.beginObject();
    out.key("index");
    out.value(undo.index());
    out.key("count");
    out.value(undo.count());
    out.key("text");
    out.value(undo.undoText().toStdString());
    out.endObject();
}

void writeError(JsonWriter& out, const Json& id, std::string_view code, const std::string& message)
{
    out.beginObject();
    out.key("id");
    out.value(id);
    out.key("ok");
    out.value(false);
    out.key("error");
    out.beginObject();
    out.key("code");
    out.value(code);
    out.key("message");
    out.value(message);
    out.endObject();
    out.endObject();
}

std::vector<std::int64_t> unravel(std::int64_t flat, const Shape& shape)
{
    std::vector<std::int64_t> coords(shape.size());
    for (std::size_t k = shape.size(); k-- > 0;) {
        coords[k] = shape[k] ? flat % shape[k] : 0;
        flat = shape[k] ? flat / shape[k] : 0;
    }
    return coords;
}

} // namespace

struct Automation::Waiting
{
    Json id;
    QElapsedTimer clock;
    std::int64_t timeoutMs = kDefaultWaitMs;
    bool settledOnce = false; ///< the previous poll found the window settled
};

Automation::Automation(MainWindow& window, QObject* parent) : QObject(parent), m_window(window)
{
    // A file changed on disk is never a modal dialog here: `save` answers an error instead
    // (and overwrites when told "overwrite": true); a focus check leaves a message.
    window.setDiskPrompt([](const QString&) { return MainWindow::DiskChoice::Cancel; });
    m_poll.setInterval(kPollMs);
    connect(&m_poll, &QTimer::timeout, this, &Automation::pollWait);
}

Automation::~Automation() = default;

void Automation::attachToStandardStreams()
{
    m_toStdout = true;
    m_notifier = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &Automation::readInput);
}

void Automation::readInput()
{
    char buffer[65536];
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n <= 0) {
        // The end (or a broken stdin): answer what is complete, then finish.
        m_notifier->setEnabled(false);
        if (!m_partial.isEmpty() && !m_overlong) m_queue.push_back(m_partial);
        m_partial.clear();
        m_inputEnded = true;
        process();
        return;
    }
    qsizetype begin = 0;
    for (qsizetype i = 0; i < qsizetype(n); ++i) {
        if (buffer[i] != '\n') continue;
        if (!m_overlong) m_queue.push_back(m_partial + QByteArray(buffer + begin, i - begin));
        m_partial.clear();
        m_overlong = false;
        begin = i + 1;
    }
    if (!m_overlong) m_partial.append(buffer + begin, qsizetype(n) - begin);
    if (m_partial.size() > kMaxLineBytes) {
        // Answer now, in its place in the order, and drop the rest of the line as it comes.
        m_partial.clear();
        m_overlong = true;
        m_queue.push_back(std::nullopt);
    }
    process();
}

void Automation::submit(const QByteArray& line)
{
    m_queue.push_back(line);
    process();
}

void Automation::process()
{
    while (!m_waiting && !m_quit && !m_queue.empty()) {
        const std::optional<QByteArray> line = m_queue.front();
        m_queue.pop_front();
        if (line && line->trimmed().isEmpty()) continue;
        handle(line);
    }
    if (!m_quit && m_inputEnded && isIdle()) {
        m_quit = true;
        emit finished();
    }
}

void Automation::reply(const std::string& line)
{
    if (m_toStdout) {
        std::fwrite(line.data(), 1, line.size(), stdout);
        std::fputc('\n', stdout);
        std::fflush(stdout);
    }
    emit answered(QByteArray::fromStdString(line));
}

void Automation::handle(const std::optional<QByteArray>& line)
{
    std::string answer;
    Json id;
    try {
        if (!line)
            throw OpError(ErrorCode::ResourceExhausted,
                          "command line longer than " + std::to_string(kMaxLineBytes) + " bytes");
        const Json command =
            parseJson(std::string_view(line->constData(), std::size_t(line->size())));
        if (!command.isObject())
            badRequest("a command is a JSON object, not " + std::string(command.typeName()));
        if (const Json* given = command.find("id")) id = *given;
        JsonWriter out(answer);
        dispatch(command, id, out);
        if (m_waiting) return; // pollWait answers
    } catch (...) {
        answer.clear();
        JsonWriter out(answer);
        writeErrorResponse(out, id, errorFromException(std::current_exception()));
    }
    reply(answer);
    if (m_quit) emit finished();
}

void Automation::pollWait()
{
    if (!m_waiting) {
        m_poll.stop();
        return;
    }
    // Settled twice in a row, with the event loop run between: a result that lands sets off
    // zero-delay work (the colour fit, a repaint's scroll) that is not settled again until done.
    const bool settled = m_window.isSettled() && std::exchange(m_waiting->settledOnce, true);
    if (!m_window.isSettled()) m_waiting->settledOnce = false;
    if (!settled && m_waiting->clock.elapsed() < m_waiting->timeoutMs) return;
    m_poll.stop();
    std::string answer;
    JsonWriter out(answer);
    if (settled) {
        out.beginObject();
        out.key("id");
        out.value(m_waiting->id);
        out.key("ok");
        out.value(true);
        out.key("settled");
        out.value(true);
        out.key("waited_ms");
        out.value(std::int64_t(m_waiting->clock.elapsed()));
        out.endObject();
    } else {
        writeError(out, m_waiting->id, "timeout",
                   "the workbench did not settle within " + std::to_string(m_waiting->timeoutMs) +
                       " ms");
    }
    m_waiting.reset();
    reply(answer);
    // Later commands run from the event loop, not inside this timer's slot.
    QMetaObject::invokeMethod(this, &Automation::process, Qt::QueuedConnection);
}

const std::vector<Automation::Command>& Automation::commands()
{
    // In the order ui/README.md lists them (tst_automation's commandListsAgree).
    static const std::vector<Command> table = {
        {"open_lesson", &Automation::openLesson},
        {"open_file", &Automation::openFile},
        {"save", &Automation::save},
        {"set_op", &Automation::setOp},
        {"set_expr", &Automation::setExpr},
        {"set_framework", &Automation::setFramework},
        {"set_shape", &Automation::setShape},
        {"set_dtype", &Automation::setDtype},
        {"set_fill", &Automation::setFill},
        {"set_literal", &Automation::setLiteral},
        {"set_attr", &Automation::setAttr},
        {"set_cell", &Automation::setCell},
        {"step", &Automation::step},
        {"wait", &Automation::waitCommand},
        {"state", &Automation::stateCommand},
        {"undo", &Automation::undoRedo},
        {"redo", &Automation::undoRedo},
        {"screenshot", &Automation::screenshot},
        {"export_image", &Automation::exportPicture},
        {"export_animation", &Automation::exportPicture},
        {"presentation", &Automation::presentation},
        {"quit", &Automation::quitCommand},
    };
    return table;
}

std::string Automation::commandNames()
{
    std::string names;
    for (const Command& c : commands())
        names += (names.empty() ? "" : ", ") + std::string(c.name);
    return names;
}

void Automation::dispatch(const Json& command, const Json& id, JsonWriter& out)
{
    const std::string cmd = stringMember(command, "cmd");
    const auto& table = commands();
    const auto it =
        std::find_if(table.begin(), table.end(), [&](const Command& c) { return cmd == c.name; });
    if (it == table.end())
        badRequest("unknown command \"" + cmd + "\"; the commands are " + commandNames());
    // The answer: {"id", "ok": true, what the command adds}. A command that throws has its
    // answer replaced by the error; wait answers later, from pollWait.
    out.beginObject();
    out.key("id");
    out.value(id);
    out.key("ok");
    out.value(true);
    (this->*(it->handler))(command, id, out);
    out.endObject();
}

void Automation::stateCommand(const Json& command, const Json& /*id*/, JsonWriter& out)
{
    writeState(command, out);
}

void Automation::quitCommand(const Json& /*command*/, const Json& /*id*/, JsonWriter& /*out*/)
{
    m_quit = true;
}

void Automation::waitCommand(const Json& command, const Json& id, JsonWriter& /*out*/)
{
    // Checked before the wait begins: a refused wait must leave nothing waiting, or no later
    // command would ever run.
    const std::int64_t timeoutMs = intMember(command, "timeout_ms", kDefaultWaitMs);
    if (timeoutMs < 0) badRequest("\"timeout_ms\" must not be negative");
    auto waiting = std::make_unique<Waiting>();
    waiting->id = id;
    waiting->timeoutMs = timeoutMs;
    waiting->clock.start();
    m_waiting = std::move(waiting);
    m_poll.start();
}

void Automation::openLesson(const Json& command, const Json& /*id*/, JsonWriter& /*out*/)
{
    MainWindow& w = m_window;
    const QString name = QString::fromStdString(stringMember(command, "name"));
    if (!w.openLesson(name)) {
        QStringList names;
        for (const Lesson& lesson : lessons())
            if (lesson.unavailable.isEmpty()) names << lesson.name;
        invalidArgument("there is no lesson \"" + name.toStdString() +
                        "\"; the lessons are: " + names.join(QStringLiteral(", ")).toStdString());
    }
}

void Automation::openFile(const Json& command, const Json& /*id*/, JsonWriter& /*out*/)
{
    MainWindow& w = m_window;
    QString error;
    if (!w.document()->openFile(pathMember(command, "path"), &error))
        invalidArgument(error.toStdString());
}

void Automation::save(const Json& command, const Json& /*id*/, JsonWriter& /*out*/)
{
    MainWindow& w = m_window;
    QString error;
    bool overwrite = false;
    if (const Json* force = command.find("overwrite")) {
        if (!force->isBool()) badRequest("\"overwrite\" must be true or false");
        overwrite = force->toBool();
    }
    if (!w.document()->saveFile(pathMember(command, "path"), &error, overwrite))
        invalidArgument(error.toStdString());
}

void Automation::setOp(const Json& command, const Json& /*id*/, JsonWriter& /*out*/)
{
    MainWindow& w = m_window;
    const std::string name = stringMember(command, "op");
    const OpDef* def = findOp(name);
    if (!def) badRequest("unknown op \"" + name + "\"");
    // As a person picks it: the picker's own handler switches, with its undo step.
    QComboBox* picker = w.opPicker();
    const int index = picker->findData(QString::fromStdString(def->name));
    if (index < 0) invalidArgument("this build has no op \"" + name + "\"");
    picker->setCurrentIndex(index);
    emit picker->activated(index);
}

void Automation::setExpr(const Json& command, const Json& /*id*/, JsonWriter& /*out*/)
{
    MainWindow& w = m_window;
    SpecEditor* spec = w.specEditor();
    if (!spec)
        invalidArgument("op " + w.document()->workspace().op +
                        " has no expression (set_op getitem first)");
    spec->setText(QString::fromStdString(stringMember(command, "expr")));
}

void Automation::setFramework(const Json& command, const Json& /*id*/, JsonWriter& /*out*/)
{
    MainWindow& w = m_window;
    // Exactly the keys `state` reports; the protocol's aliases (np, pytorch) are not taken.
    const std::string key = stringMember(command, "framework");
    const auto& models = frameworkModels();
    const auto model = std::find_if(models.begin(), models.end(), [&](const auto* m) {
        return readsSubscriptOps(m->id()) && m->key() == key;
    });
    if (model == models.end())
        badRequest("\"framework\" is one of " + subscriptFrameworkKeys() + ", not \"" + key + "\"");
    // As a person picks it: the selector's own handler makes the undo step.
    FrameworkSelector* selector = w.opEditor()->frameworkSelector();
    if (!selector)
        invalidArgument("op " + w.document()->workspace().op +
                        " is read by TensorFlow alone (set_op getitem or strided_slice first)");
    selector->setCurrentIndex(selector->findData(int((*model)->id())));
}

void Automation::setShape(const Json& command, const Json& /*id*/, JsonWriter& /*out*/)
{
    MainWindow& w = m_window;
    const int slot = slotOf(command, w);
    const Json& value = member(command, "shape");
    QString text;
    if (value.isArray()) {
        Shape shape;
        for (const Json& dim : value.toArray()) {
            if (!dim.isInt64()) badRequest("\"shape\" lists integer sizes");
            shape.push_back(dim.toInt64());
        }
        text = shapeText(shape);
    } else {
        text = fieldText(value);
    }
    parseShape(text.toStdString()); // refused with the reason, as the shape field says it
    auto* field = controlsOf(w, slot)->shapeField();
    if (field->isReadOnly())
        invalidArgument("input slot " + std::to_string(slot) +
                        " is a literal: its shape follows from the literal's nesting");
    field->setText(text);
}

void Automation::setDtype(const Json& command, const Json& /*id*/, JsonWriter& /*out*/)
{
    MainWindow& w = m_window;
    const int slot = slotOf(command, w);
    const std::string name = stringMember(command, "dtype");
    if (name != "auto" && !dtypeFromName(name)) badRequest("unknown dtype \"" + name + "\"");
    selectData(controlsOf(w, slot)->dtypeField(),
               name == "auto" ? QString() : QString::fromStdString(name),
               "unknown dtype \"" + name + "\"");
}

void Automation::setFill(const Json& command, const Json& /*id*/, JsonWriter& /*out*/)
{
    MainWindow& w = m_window;
    const int slot = slotOf(command, w);
    const std::string name = stringMember(command, "fill");
    const auto fill = fillKindFromName(QString::fromStdString(name));
    if (!fill || *fill == FillKind::Data)
        badRequest("\"fill\" is one of arange, zeros, ones, random, literal (cells come from "
                   "set_cell or a file), not \"" +
                   name + "\"");
    selectData(controlsOf(w, slot)->fillField(), int(*fill), "fill " + name);
    if (const Json* seed = command.find("seed")) {
        if (!seed->isInt64() || seed->toInt64() < 0 || seed->toInt64() > INT_MAX)
            badRequest("\"seed\" is an integer from 0 to 2147483647");
        controlsOf(w, slot)->seedField()->setValue(int(seed->toInt64()));
    }
}

void Automation::setLiteral(const Json& command, const Json& /*id*/, JsonWriter& /*out*/)
{
    MainWindow& w = m_window;
    const int slot = slotOf(command, w);
    auto* field = controlsOf(w, slot)->literalField();
    if (field->isHidden())
        invalidArgument("input slot " + std::to_string(slot) +
                        " is not made from a literal (set_fill literal first)");
    field->setText(fieldText(member(command, "value")));
}

void Automation::setAttr(const Json& command, const Json& /*id*/, JsonWriter& /*out*/)
{
    MainWindow& w = m_window;
    const std::string name = stringMember(command, "name");
    const Json& value = member(command, "value");
    const OpDef* def = findOp(w.document()->workspace().op);
    const auto known = std::find_if(def->attrs.begin(), def->attrs.end(), [&](const AttrDef& a) {
        return a.name == name ||
               std::find(a.aliases.begin(), a.aliases.end(), name) != a.aliases.end();
    });
    if (known == def->attrs.end())
        invalidArgument("op " + def->name + " has no attribute \"" + name + "\"");
    // The field a person would type into, when the op's editor has one.
    QLineEdit* field = w.opEditor()->attrField(known->name);
    if (known->name == "expr" && w.specEditor()) {
        w.specEditor()->setText(fieldText(value));
    } else if (field) {
        field->setText(fieldText(value));
    } else {
        // The raw tables (begin, end, strides and the masks) take one cell at a time: the
        // value goes to the workspace as one undoable step.
        Workspace next = w.document()->workspace();
        next.attrs.erase(name);
        next.attrs[known->name] = attrFromJson(value, known->name);
        w.document()->edit(next, QObject::tr("Set %1").arg(QString::fromStdString(known->name)));
    }
}

void Automation::setCell(const Json& command, const Json& /*id*/, JsonWriter& /*out*/)
{
    MainWindow& w = m_window;
    const int slot = slotOf(command, w);
    TensorModel* model = w.inputView(slot)->model();
    const Tensor& tensor = model->tensor();
    if (!tensor.isValid())
        invalidArgument("input slot " + std::to_string(slot) + " has no tensor yet");
    const Json& index = member(command, "index");
    std::int64_t flat = 0;
    if (index.isInt64()) {
        flat = index.toInt64();
    } else if (index.isArray() && index.toArray().size() == tensor.shape().size()) {
        for (std::size_t k = 0; k < tensor.shape().size(); ++k) {
            const Json& c = index.toArray()[k];
            if (!c.isInt64() || c.toInt64() < 0 || c.toInt64() >= tensor.shape()[k])
                outOfRange("index " + std::to_string(k) + " is outside dimension " +
                           std::to_string(k) + " of size " + std::to_string(tensor.shape()[k]));
            flat = flat * tensor.shape()[k] + c.toInt64();
        }
    } else {
        badRequest("\"index\" is a flat index or a list of one coordinate per dimension");
    }
    if (flat < 0 || flat >= tensor.size())
        outOfRange("flat index " + std::to_string(flat) + " is outside the " +
                   std::to_string(tensor.size()) + " elements");
    const QString text = fieldText(member(command, "value"));
    const QString before = w.message();
    const Workspace unchanged = w.document()->workspace();
    model->setData(model->indexOfFlat(flat), text, Qt::EditRole);
    // A value the workbench could not read leaves the workspace as it was and says why in
    // the message strip (which may already say so from the same mistake a moment ago).
    const QString message = plainText(w.message());
    if (w.document()->workspace() == unchanged && !message.isEmpty() &&
        (w.message() != before || message.startsWith(text.trimmed())))
        invalidArgument(message.toStdString());
}

void Automation::step(const Json& command, const Json& /*id*/, JsonWriter& out)
{
    MainWindow& w = m_window;
    DecodeStepper* stepper = w.stepper();
    const Json& to = member(command, "to");
    if (to.isInt64()) {
        if (to.toInt64() < -1 || to.toInt64() >= stepper->stepCount())
            outOfRange("step " + std::to_string(to.toInt64()) + " of " +
                       std::to_string(stepper->stepCount()));
        stepper->setCurrentStep(int(to.toInt64()));
    } else if (to.isString() && to.toString() == "first") {
        stepper->first();
    } else if (to.isString() && to.toString() == "previous") {
        stepper->previous();
    } else if (to.isString() && to.toString() == "next") {
        stepper->next();
    } else if (to.isString() && to.toString() == "last") {
        stepper->last();
    } else {
        badRequest("\"to\" is first, previous, next, last or a step number");
    }
    out.key("step");
    out.value(stepper->currentStep());
    out.key("title");
    out.value(stepper->stepTitle(stepper->currentStep()).toStdString());
}

void Automation::undoRedo(const Json& command, const Json& /*id*/, JsonWriter& out)
{
    MainWindow& w = m_window;
    const std::string cmd = stringMember(command, "cmd");
    QUndoStack* undo = w.document()->undoStack();
    if (cmd == "undo" ? !undo->canUndo() : !undo->canRedo()) invalidArgument("nothing to " + cmd);
    cmd == "undo" ? undo->undo() : undo->redo();
    writeUndo(out, *undo);
}

void Automation::screenshot(const Json& command, const Json& /*id*/, JsonWriter& out)
{
    MainWindow& w = m_window;
    const QString path = pathMember(command, "path");
    QWidget* target = &w;
    if (const Json* view = command.find("view")) {
        if (!view->isString()) badRequest("\"view\" is an objectName such as output0View");
        target = w.findChild<QWidget*>(QString::fromStdString(view->toString()));
        if (!target || !target->isVisibleTo(&w))
            invalidArgument("no widget named \"" + view->toString() + "\" is on show");
    }
    const QPixmap pixmap = target->grab();
    QString error;
    if (!PictureWriter::writePng(pixmap.toImage(), path, &error))
        invalidArgument(error.toStdString());
    out.key("width");
    out.value(pixmap.width());
    out.key("height");
    out.value(pixmap.height());
}

void Automation::exportPicture(const Json& command, const Json& /*id*/, JsonWriter& /*out*/)
{
    MainWindow& w = m_window;
    const std::string cmd = stringMember(command, "cmd");
    // What File > Export Image / Export Read-Order Animation write, without the dialog.
    const bool image = cmd == "export_image";
    const Json* view = command.find("view");
    if (view && !view->isString()) badRequest("\"view\" is window, input, output0, ...");
    const QString name = view    ? QString::fromStdString(view->toString())
                         : image ? QStringLiteral("window")
                                 : QStringLiteral("input");
    double scale = 1.0;
    if (const Json* s = command.find("scale")) {
        if (!s->isNumber()) badRequest("\"scale\" must be a number");
        scale = s->number().value;
    }
    const std::int64_t speed = intMember(command, "speed_ms", ReadOrderAnimation::kDefaultStepMs);
    QString error;
    ImageExporter exporter(w);
    const QString path = pathMember(command, "path");
    if (image ? !exporter.exportImage(name, path, scale, &error)
              : !exporter.exportAnimation(name, path,
                                          int(std::clamp<std::int64_t>(speed, 0, INT_MAX)), &error))
        invalidArgument(error.toStdString());
}

void Automation::presentation(const Json& command, const Json& /*id*/, JsonWriter& /*out*/)
{
    MainWindow& w = m_window;
    const Json& on = member(command, "on");
    if (!on.isBool()) badRequest("\"on\" must be true or false");
    w.presentation()->setOn(on.toBool());
}

void Automation::writeState(const Json& command, JsonWriter& out)
{
    const MainWindow& w = m_window;
    const std::int64_t maxElements = intMember(command, "max_elements", kDefaultMaxElements);
    const std::int64_t maxCells = intMember(command, "max_cells", kDefaultMaxCells);
    const Workspace& ws = w.document()->workspace();
    out.key("op");
    out.value(ws.op);
    out.key("lesson");
    out.value(w.currentLesson().toStdString());
    out.key("attrs");
    out.beginObject();
    for (const auto& [name, value] : ws.attrs) {
        out.key(name);
        writeAttr(out, value);
    }
    out.endObject();
    if (const SpecEditor* spec = w.specEditor()) {
        out.key("expr");
        out.value(spec->text().toStdString());
    }
    out.key("framework");
    out.value(frameworkModel(ws.framework).key());
    out.key("settled");
    out.value(w.isSettled());
    out.key("stale");
    out.value(w.isStale());

    const auto last = w.lastEvaluation();
    out.key("error");
    if (last && !last->ok) {
        out.beginObject();
        out.key("code");
        out.value(errorCodeName(last->code));
        out.key("message");
        out.value(last->message.toStdString());
        if (last->position) {
            out.key("position");
            out.value(*last->position);
        }
        out.endObject();
    } else {
        out.null();
    }
    out.key("message");
    out.value(plainText(w.message()).toStdString());

    const auto shown = w.shownEvaluation();
    const auto decoded = last && last->decode ? last : shown;
    if (decoded && decoded->decode) {
        const SparseSpec& s = decoded->decode->sparse;
        out.key("masks");
        out.beginObject();
        for (const auto& [name, mask] :
             {std::pair("begin_mask", s.beginMask), std::pair("end_mask", s.endMask),
              std::pair("ellipsis_mask", s.ellipsisMask), std::pair("new_axis_mask", s.newAxisMask),
              std::pair("shrink_axis_mask", s.shrinkAxisMask)}) {
            out.key(name);
            out.value(std::int64_t(mask));
        }
        out.endObject();
    }

    out.key("outputs");
    out.beginArray();
    for (int k = 0; k < w.outputViewCount(); ++k) {
        const TensorView* view = w.outputView(k);
        const Tensor& t = view->model()->tensor();
        out.beginObject();
        out.key("name");
        out.value(view->title().toStdString());
        if (t.isValid()) {
            out.key("summary");
            writeTensorSummary(out, t);
            if (t.size() <= maxElements) {
                out.key("tensor");
                writeTensor(out, t);
            }
        }
        out.endObject();
    }
    out.endArray();

    // What the input views light, in the order the op reads it.
    out.key("inputs");
    out.beginArray();
    for (int s = 0; s < w.inputPanel()->slotCount(); ++s) {
        const TensorModel* model = w.inputView(s)->model();
        const Tensor& t = model->tensor();
        out.beginObject();
        out.key("name");
        out.value(w.inputView(s)->title().toStdString());
        if (t.isValid()) {
            out.key("dtype");
            out.value(dtypeName(t.dtype()));
            out.key("shape");
            writeShape(out, t.shape());
            // Counted in a pass, and only the cells listed kept: every lit element as a pair
            // took 16 bytes each (400 MB for 25 million), past a 400 MB memory cgroup.
            std::vector<std::pair<ReadPosition, std::int64_t>> lit;
            std::int64_t litCount = 0;
            if (const ReadOrder order = model->readOrder()) {
                litCount = summarizeReadOrder(*order).selected;
                lit = readElements(*order, std::max<std::int64_t>(0, maxCells));
            }
            out.key("lit_count");
            out.value(litCount);
            out.key("lit");
            out.beginArray();
            for (std::size_t i = 0; i < lit.size() && std::int64_t(i) < maxCells; ++i) {
                const auto coords = unravel(lit[i].second, t.shape());
                out.array(coords.data(), std::int64_t(coords.size()));
            }
            out.endArray();
        }
        out.endObject();
    }
    out.endArray();

    const DecodeStepper* stepper = w.stepper();
    out.key("step");
    out.beginObject();
    out.key("index");
    out.value(stepper->currentStep());
    out.key("count");
    out.value(stepper->stepCount());
    out.key("title");
    out.value(stepper->stepTitle(stepper->currentStep()).toStdString());
    out.endObject();
    writeUndo(out, *w.document()->undoStack());
    {
        out.key("status");
        out.value(plainText(w.statusShapes()).toStdString());
    }
}

} // namespace ss::ui
