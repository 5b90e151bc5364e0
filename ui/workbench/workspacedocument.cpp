// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/workspacedocument.h"

#include "core/error.h"
#include "protocol/npy.h"
#include "ui/model/engineclient.h"
#include "ui/model/explain.h"
#include "ui/model/workspacefile.h"
#include "ui/workbench/evaluationcontroller.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QUndoCommand>
#include <QUndoStack>

namespace ss::ui {

namespace {

/// Typing pauses longer than this start a new undo step.
constexpr qint64 kMergeWindowMs = 2000;
const char* const kRecentKey = "files/recent";
const char* const kReopenLastKey = "files/reopenLast";
const char* const kLastFolderKey = "files/lastFolder";
constexpr int kMaxRecent = 8;

} // namespace

// Every user-visible change is one of these: the workspace before and after. Consecutive edits
// with the same merge key (keystrokes in one text field) within kMergeWindowMs merge into one
// step; edits of different fields or cells never do, and committed edits (a table cell, a check
// box, a choice) carry no key at all.
class WorkspaceDocument::WorkspaceCommand : public QUndoCommand
{
public:
    WorkspaceCommand(WorkspaceDocument* document, Workspace before, Workspace after,
                     const QString& text, QString mergeKey)
        : QUndoCommand(text), m_document(document), m_before(std::move(before)),
          m_after(std::move(after)), m_mergeKey(std::move(mergeKey))
    {
        m_time.start();
    }

    int id() const override { return m_mergeKey.isEmpty() ? -1 : 1; }

    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* next = static_cast<const WorkspaceCommand*>(other);
        if (next->m_mergeKey != m_mergeKey || m_time.elapsed() > kMergeWindowMs) return false;
        m_after = next->m_after;
        m_time.restart();
        // Typed and typed back: a step that changes nothing is no step.
        setObsolete(m_after == m_before);
        return true;
    }

    void redo() override { m_document->apply(m_after); }
    void undo() override { m_document->apply(m_before); }

private:
    WorkspaceDocument* m_document;
    Workspace m_before;
    Workspace m_after;
    QString m_mergeKey;
    QElapsedTimer m_time;
};

WorkspaceDocument::WorkspaceDocument(EngineClient* engine, const EvaluationController* evaluation,
                                     QObject* parent)
    : QObject(parent), m_engine(engine), m_evaluation(evaluation), m_undo(new QUndoStack(this))
{
}

WorkspaceDocument::~WorkspaceDocument() = default;

bool WorkspaceDocument::isModified() const
{
    return !m_undo->isClean();
}

void WorkspaceDocument::edit(const Workspace& next, const QString& undoText,
                             const QString& mergeKey)
{
    if (next == m_ws) return;
    emit aboutToChange();
    m_undo->push(new WorkspaceCommand(this, m_ws, next, undoText, mergeKey));
    emit fileChanged(); // the title's unsaved-changes marker
}

void WorkspaceDocument::load(const Workspace& ws)
{
    // Opening starts a fresh history: no undo step leads back into the workspace that was
    // closed (the Save-changes prompt before opening is what guards it), and the opened
    // workspace is the clean state.
    m_undo->clear();
    emit aboutToChange();
    if (ws != m_ws) apply(ws);
    emit opened();
}

void WorkspaceDocument::reapply()
{
    emit changed(m_ws);
}

void WorkspaceDocument::apply(const Workspace& ws)
{
    // Workspaces are read through findOp, so an unknown op cannot be reached by a user.
    if (!findOp(ws.op)) return;
    const Workspace previous = std::exchange(m_ws, ws);
    emit changed(previous);
}

bool WorkspaceDocument::openFile(const QString& path, QString* error)
{
    try {
        QString note;
        const Workspace ws = readWorkspaceFile(path, m_ws, m_engine->limits(), &note);
        // A .npy file is an input of the workspace (which it changes, one undo step); a
        // workspace file is the document's file from now on, opened with a fresh history.
        if (path.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive)) {
            edit(ws, tr("Open %1").arg(QFileInfo(path).fileName()));
            if (!note.isEmpty()) emit noted(note);
        } else {
            load(ws);
            m_filePath = QFileInfo(path).absoluteFilePath();
            stampFile();
            addRecentFile(m_filePath);
        }
        rememberFolder(path);
        emit fileChanged();
        return true;
    } catch (const OpError& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
}

bool WorkspaceDocument::followFile()
{
    try {
        const Workspace ws = readWorkspaceFile(m_filePath, m_ws, m_engine->limits());
        const QString name = QFileInfo(m_filePath).fileName();
        edit(ws, tr("Reload %1").arg(name));
        stampFile();
        m_undo->setClean();
        emit fileChanged();
        emit noted(tr("%1 was changed on disk by another window or program, and this window had "
                      "nothing unsaved: it shows the file now. Undo brings back what it showed.")
                       .arg(name));
        return true;
    } catch (const OpError&) {
        return false;
    }
}

bool WorkspaceDocument::saveFile(const QString& path, QString* error, bool overwrite)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (!m_filePath.isEmpty() && absolute == m_filePath && !overwrite) {
        switch (m_fileStamp.compare(m_filePath)) {
        case FileStamp::Change::None:
            if (m_undo->isClean()) return true; // the file holds this workspace already
            break;
        case FileStamp::Change::Modified:
            // Another window or program wrote it: its work is not replaced without a word.
            if (error)
                *error = tr("%1 was changed on disk since this window opened or saved it, so it "
                            "was not overwritten. Reload it, overwrite it, or save as another "
                            "file.")
                             .arg(QFileInfo(path).fileName());
            return false;
        case FileStamp::Change::Missing: break; // written again
        }
    }
    try {
        writeWorkspaceFile(path, m_ws);
        m_filePath = absolute;
        stampFile();
        rememberFolder(path);
        m_undo->setClean();
        addRecentFile(m_filePath);
        emit fileChanged();
        return true;
    } catch (const OpError& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
}

void WorkspaceDocument::forgetFile()
{
    m_filePath.clear();
    stampFile();
}

QString WorkspaceDocument::displayName() const
{
    return !m_filePath.isEmpty()   ? QFileInfo(m_filePath).fileName()
           : !m_ws.title.isEmpty() ? m_ws.title
                                   : tr("Untitled");
}

FileStamp::Change WorkspaceDocument::diskChange() const
{
    return m_filePath.isEmpty() ? FileStamp::Change::None : m_fileStamp.compare(m_filePath);
}

bool WorkspaceDocument::takeNewDiskChange()
{
    // Once per change on disk: leaving the question open ("Cancel") is an answer too.
    const FileStamp now = FileStamp::of(m_filePath);
    if (now == m_diskAnswered) return false;
    m_diskAnswered = now;
    return true;
}

void WorkspaceDocument::stampFile()
{
    m_fileStamp = m_filePath.isEmpty() ? FileStamp() : FileStamp::of(m_filePath);
    m_diskAnswered = m_fileStamp;
}

QStringList WorkspaceDocument::recentFiles()
{
    QStringList files;
    for (const QString& path : QSettings().value(QLatin1String(kRecentKey)).toStringList())
        if (QFileInfo::exists(path) && !files.contains(path)) files << path;
    return files;
}

QStringList WorkspaceDocument::pruneRecentFiles()
{
    const QStringList files = recentFiles();
    QSettings settings;
    if (settings.value(QLatin1String(kRecentKey)).toStringList() != files)
        settings.setValue(QLatin1String(kRecentKey), files);
    return files;
}

void WorkspaceDocument::addRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecent)
        files.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), files);
    emit recentFilesChanged();
}

QString WorkspaceDocument::lastFolder()
{
    return QSettings().value(QLatin1String(kLastFolderKey)).toString();
}

void WorkspaceDocument::rememberFolder(const QString& path)
{
    QSettings().setValue(QLatin1String(kLastFolderKey), QFileInfo(path).absolutePath());
}

QString WorkspaceDocument::dialogFolder() const
{
    if (const QString last = lastFolder(); !last.isEmpty() && QFileInfo(last).isDir()) return last;
    if (!m_filePath.isEmpty()) return QFileInfo(m_filePath).absolutePath();
    return QDir::homePath();
}

bool WorkspaceDocument::reopensLastWorkspace()
{
    return QSettings().value(QLatin1String(kReopenLastKey), false).toBool();
}

void WorkspaceDocument::setReopensLastWorkspace(bool on)
{
    QSettings().setValue(QLatin1String(kReopenLastKey), on);
}

bool WorkspaceDocument::exportOutputs(const QString& path, QStringList* written,
                                      QString* error) const
{
    // Only the result of the workspace on screen: not the last good one of an older edit, not
    // one an evaluation is about to replace.
    if (m_evaluation->isBusy()) {
        *error = tr("The result is still being computed. Export it when the evaluation is done.");
        return false;
    }
    const std::shared_ptr<const Evaluation> last = m_evaluation->last();
    if (!last || !last->ok || m_evaluation->shown() != last) {
        *error = tr("Nothing exported: the workspace has an error, so there is no result for it "
                    "(the views show the last good result of an earlier edit). Fix the error, "
                    "then export.");
        return false;
    }
    if (last->outputs.empty()) {
        *error = tr("This op has no tensor output to export.");
        return false;
    }
    if (path.isEmpty()) return true; // only asked whether there is something to export
    QString target = path;
    if (!target.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive))
        target += QStringLiteral(".npy");
    QStringList files;
    if (last->outputs.size() == 1) {
        files << target;
    } else {
        const QString base = target.chopped(4);
        QStringList names = outputNames(*findOp(last->op), *last);
        for (const QString& n : names)
            files << base + u'-' + QString(n).remove(u' ') + QStringLiteral(".npy");
    }
    try {
        for (int k = 0; k < files.size(); ++k)
            writeNpyFile(QFile::encodeName(files[k]).toStdString(), last->outputs[std::size_t(k)]);
    } catch (const OpError& e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
    rememberFolder(target);
    if (written) *written = files;
    return true;
}

} // namespace ss::ui
