// SPDX-License-Identifier: GPL-3.0-or-later
// `slicescope --automation`: the workbench driven by JSON Lines commands, for GUI-driven tests.
// One answer line per command, in order, framed and shaped like slicescope-cli's responses
// ({"id", "ok": true, ...} or {"id", "ok": false, "error": {"code", "message"}}). Edits go through
// the same widgets a person uses (a field's text, a combo box, a cell), so they are evaluated and
// undone exactly like typed ones. ui/README.md, "Testing SliceScope from outside", lists the
// commands.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QTimer>

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QSocketNotifier;

namespace ss {
class Json;
class JsonWriter;
} // namespace ss

namespace ss::ui {

class MainWindow;

class Automation : public QObject
{
    Q_OBJECT
public:
    explicit Automation(MainWindow& window, QObject* parent = nullptr);
    ~Automation() override;

    /// Reads commands from standard input without blocking the GUI thread (a socket notifier on
    /// descriptor 0) and writes each answer to standard output, flushed. At the end of the input,
    /// once every command is answered, `finished` is emitted.
    void attachToStandardStreams();

    /// Queues one command line; its answer comes through `answered` after those of every
    /// earlier line. Blank lines are skipped.
    void submit(const QByteArray& line);
    /// No command is queued or waiting.
    bool isIdle() const { return m_queue.empty() && !m_waiting; }

signals:
    /// One answer, without its newline.
    void answered(const QByteArray& line);
    /// `quit` was answered, or the input ended and everything before it was answered.
    void finished();

private:
    struct Waiting;

    void process();
    void readInput();
    /// Answers one command, or (wait) leaves the answer to pollWait.
    void handle(const std::optional<QByteArray>& line);
    void pollWait();
    void reply(const std::string& line);
    void dispatch(const Json& command, const Json& id, JsonWriter& out);
    void writeState(const Json& command, JsonWriter& out);

    /// One command: after `{"id", "ok": true` it adds what its answer carries, or throws.
    using Handler = void (Automation::*)(const Json& command, const Json& id, JsonWriter& out);
    struct Command
    {
        const char* name;
        Handler handler;
    };
    /// Every command, in the order the unknown-command error and ui/README.md list them: the
    /// one table dispatch reads.
    static const std::vector<Command>& commands();
    static std::string commandNames();

    void waitCommand(const Json& command, const Json& id, JsonWriter& out);
    void stateCommand(const Json& command, const Json& id, JsonWriter& out);
    void quitCommand(const Json& command, const Json& id, JsonWriter& out);
    void openLesson(const Json& command, const Json& id, JsonWriter& out);
    void openFile(const Json& command, const Json& id, JsonWriter& out);
    void save(const Json& command, const Json& id, JsonWriter& out);
    void setOp(const Json& command, const Json& id, JsonWriter& out);
    void setExpr(const Json& command, const Json& id, JsonWriter& out);
    void setFramework(const Json& command, const Json& id, JsonWriter& out);
    void setShape(const Json& command, const Json& id, JsonWriter& out);
    void setDtype(const Json& command, const Json& id, JsonWriter& out);
    void setFill(const Json& command, const Json& id, JsonWriter& out);
    void setLiteral(const Json& command, const Json& id, JsonWriter& out);
    void setAttr(const Json& command, const Json& id, JsonWriter& out);
    void setCell(const Json& command, const Json& id, JsonWriter& out);
    void step(const Json& command, const Json& id, JsonWriter& out);
    void undoRedo(const Json& command, const Json& id, JsonWriter& out);
    void screenshot(const Json& command, const Json& id, JsonWriter& out);
    void exportPicture(const Json& command, const Json& id, JsonWriter& out);
    void presentation(const Json& command, const Json& id, JsonWriter& out);

    MainWindow& m_window;
    /// Lines waiting for their turn; nullopt stands for a line refused as too long.
    std::deque<std::optional<QByteArray>> m_queue;
    std::unique_ptr<Waiting> m_waiting;
    QTimer m_poll;
    QSocketNotifier* m_notifier = nullptr;
    QByteArray m_partial;    ///< input read but not yet ended by a newline
    bool m_overlong = false; ///< the current line passed the limit: skip to its newline
    bool m_inputEnded = false;
    bool m_quit = false;
    bool m_toStdout = false;
};

} // namespace ss::ui
