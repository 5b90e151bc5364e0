// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/filedrop.h"

#include "core/error.h"
#include "ui/model/engineclient.h"
#include "ui/model/workspacefile.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/filecommands.h"
#include "ui/workbench/inputcelledit.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/modeldock.h"
#include "ui/workbench/workspacedocument.h"

#include <QDropEvent>
#include <QEvent>
#include <QFileInfo>
#include <QMimeData>
#include <QRegularExpression>
#include <QTimer>
#include <QUrl>

namespace ss::ui {

FileDrop::FileDrop(MainWindow& window, WorkspaceDocument* document, EngineClient* engine)
    : QObject(&window), m_window(window), m_document(document), m_engine(engine)
{
    m_window.setAcceptDrops(true);
    m_window.installEventFilter(this);
}

bool FileDrop::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != &m_window) return false;
    switch (event->type()) {
    case QEvent::DragEnter:
    case QEvent::DragMove: dragOver(static_cast<QDropEvent*>(event)); return true;
    case QEvent::Drop: drop(static_cast<QDropEvent*>(event)); return true;
    default: return false;
    }
}

std::optional<std::pair<QString, int>> FileDrop::target(const QMimeData* mime,
                                                        const QPoint& pos) const
{
    if (!mime || !mime->hasUrls() || mime->urls().size() != 1) return std::nullopt;
    const QUrl url = mime->urls().front();
    if (!url.isLocalFile()) return std::nullopt;
    const QString path = url.toLocalFile();
    const bool npy = path.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive);
    if (!npy && !path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) &&
        !ModelDock::isModelFile(path))
        return std::nullopt;
    int slot = -1;
    if (npy) {
        // Over an input's block: that input. Anywhere else: the first, as File > Open does.
        static const QRegularExpression block(QStringLiteral("^input(\\d+)Block$"));
        for (QWidget* w = m_window.childAt(pos); w && w != &m_window; w = w->parentWidget())
            if (const auto match = block.match(w->objectName()); match.hasMatch()) {
                slot = match.captured(1).toInt();
                break;
            }
    }
    return std::pair(path, slot);
}

void FileDrop::dragOver(QDropEvent* event) const
{
    if (target(event->mimeData(), event->position().toPoint()))
        event->acceptProposedAction();
    else
        event->ignore();
}

void FileDrop::drop(QDropEvent* event)
{
    const auto found = target(event->mimeData(), event->position().toPoint());
    if (!found) {
        event->ignore();
        return;
    }
    event->acceptProposedAction();
    // After the drop has ended: "Save changes?" must not open inside the drag's event.
    QTimer::singleShot(0, this,
                       [this, path = found->first, slot = found->second] { open(path, slot); });
}

void FileDrop::open(const QString& path, int slot)
{
    if (ModelDock::isModelFile(path)) {
        // As File > Open Model… does: read on a worker into the Model dock; a file that does
        // not read is said in the window too, not only in the dock.
        MainWindow* window = &m_window;
        m_window.docks()->model()->openModel(path, [window](bool ok, const QString& error) {
            if (!ok) window->showError(error);
        });
        return;
    }
    QString error;
    const bool npy = path.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive);
    if (npy && slot >= 0) {
        const auto entry = InputCellEdit::entry(m_document->workspace(), slot);
        if (!entry) return;
        try {
            // The one reader of .npy files, as File > Open uses it; its first input is the
            // file's tensor.
            const Workspace read =
                readWorkspaceFile(path, m_document->workspace(), m_engine->limits());
            Workspace next = m_document->workspace();
            next.inputs[entry->first][entry->second] = read.inputs.front().front();
            const TensorView* view = m_window.inputView(slot);
            m_document->edit(next, tr("Drop %1 on %2")
                                       .arg(QFileInfo(path).fileName(),
                                            view ? view->title() : tr("input %1").arg(slot)));
        } catch (const OpError& e) {
            m_window.showError(QString::fromUtf8(e.what()));
        }
        return;
    }
    // A workspace replaces the window's (after "Save changes?"); a .npy is an edit.
    if (!npy && !m_window.files()->maybeSave()) return;
    if (!m_window.openFile(path, &error)) m_window.showError(error);
}

} // namespace ss::ui
