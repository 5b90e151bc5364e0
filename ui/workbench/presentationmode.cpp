// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/presentationmode.h"

#include "core/op.h"
#include "ui/model/explain.h"
#include "ui/views/plaintext.h"
#include "ui/workbench/decodestepper.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/workspacedocument.h"

#include <QAction>
#include <QBoxLayout>
#include <QDockWidget>
#include <QEvent>
#include <QFontMetrics>
#include <QLabel>
#include <QSplitter>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>

#include <algorithm>

namespace ss::ui {

PresentationMode::PresentationMode(MainWindow& window)
    : QObject(&window), m_window(window), m_banner(new QWidget), m_expression(new QLabel),
      m_step(new QLabel)
{
    m_banner->setObjectName(QStringLiteral("presentationBanner"));
    m_expression->setObjectName(QStringLiteral("presentationExpression"));
    m_expression->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_step->setObjectName(QStringLiteral("presentationStep"));
    m_step->setWordWrap(true);
    m_step->setTextFormat(Qt::PlainText);
    m_step->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    auto* layout = new QGridLayout(m_banner);
    layout->setContentsMargins(0, 0, 0, 6);
    layout->addWidget(m_expression, 0, 0, 1, 3);
    layout->addWidget(m_step, 1, 0);
    // The decode dock is hidden: its actions (and their Alt+arrow shortcuts) live on here.
    int column = 1;
    for (QAction* action : {window.stepper()->previousAction(), window.stepper()->nextAction()}) {
        auto* button = new QToolButton;
        button->setObjectName(action->objectName().chopped(6) + QStringLiteral("Presentation"));
        button->setDefaultAction(action);
        button->setAccessibleName(action->text().remove(u'&'));
        layout->addWidget(button, 1, column++, Qt::AlignTop);
    }
    layout->setColumnStretch(0, 1);
    m_banner->hide();
    if (auto* column = qobject_cast<QBoxLayout*>(window.editorArea()->layout()))
        column->insertWidget(0, m_banner);
    connect(&window, &MainWindow::evaluationShown, this, &PresentationMode::refresh);
    window.installEventFilter(this);
    connect(window.stepper(), &DecodeStepper::currentStepChanged, this, &PresentationMode::refresh);
}

void PresentationMode::setOn(bool on)
{
    if (on == m_on) return;
    m_on = on;
    on ? enter() : leave();
    emit toggled(on);
}

void PresentationMode::enter()
{
    m_windowState = m_window.saveState();
    m_geometry = m_window.geometry();
    m_statusBarShown = !m_window.statusBar()->isHidden();
    QWidget* central = m_window.centralWidget();
    m_centralHadFont = central->testAttribute(Qt::WA_SetFont);
    m_centralFont = central->font();
    m_splitters.clear();
    for (QSplitter* splitter : m_window.findChildren<QSplitter*>())
        m_splitters.emplace_back(splitter, splitter->saveState());

    // The kept dock stays if it is open. isHidden, not isVisible: --presentation --exercise
    // turns the mode on before the show.
    for (QDockWidget* dock : m_window.findChildren<QDockWidget*>())
        if (dock != m_keptDock || dock->isHidden()) dock->hide();
    for (QToolBar* bar : m_window.findChildren<QToolBar*>(QString(), Qt::FindDirectChildrenOnly))
        bar->hide();
    m_window.statusBar()->hide();
    QFont larger = m_centralFont;
    larger.setPointSizeF(m_centralFont.pointSizeF() * kFontScale);
    // A font set on a widget itself does not follow its parent's: those grow one by one.
    m_ownFonts.clear();
    for (QWidget* w : central->findChildren<QWidget*>())
        if (w->testAttribute(Qt::WA_SetFont) && w != m_expression && w->font().pointSizeF() > 0)
            m_ownFonts.emplace_back(w, w->font());
    central->setFont(larger);
    for (const auto& [w, font] : m_ownFonts) {
        QFont grown = font;
        grown.setPointSizeF(font.pointSizeF() * kFontScale);
        w->setFont(grown);
    }
    QFont big = larger;
    big.setPointSizeF(larger.pointSizeF() * kExpressionScale);
    big.setBold(true);
    m_expression->setFont(big);
    // The step and its detail keep three lines of room, so stepping never moves the views.
    m_step->setMinimumHeight(3 * QFontMetrics(larger).lineSpacing() + 4);
    refresh();
    m_banner->show();
}

void PresentationMode::leave()
{
    m_banner->hide();
    QWidget* central = m_window.centralWidget();
    // A font that was inherited is inherited again (it follows the application's afterwards).
    central->setFont(m_centralHadFont ? m_centralFont : QFont());
    for (const auto& [w, font] : m_ownFonts)
        if (w) w->setFont(font);
    // A widget made while presenting (an op's editor after an op switch, a lesson or an
    // exercise) took its own font from the larger one: it gets back what enter() would have
    // grown it from.
    for (QWidget* w : central->findChildren<QWidget*>()) {
        const bool known = std::any_of(m_ownFonts.begin(), m_ownFonts.end(),
                                       [w](const auto& own) { return own.first == w; });
        if (w->testAttribute(Qt::WA_SetFont) && !known && w != m_expression &&
            w->font().pointSizeF() > 0) {
            QFont shrunk = w->font();
            shrunk.setPointSizeF(shrunk.pointSizeF() / kFontScale);
            w->setFont(shrunk);
        }
    }
    m_ownFonts.clear();
    m_window.statusBar()->setVisible(m_statusBarShown);
    m_window.restoreState(m_windowState);
    m_window.setGeometry(m_geometry);
    for (const auto& [splitter, state] : m_splitters)
        if (splitter) splitter->restoreState(state);
    m_splitters.clear();
}

bool PresentationMode::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == &m_window && event->type() == QEvent::Show) repropagateFont();
    return QObject::eventFilter(watched, event);
}

void PresentationMode::repropagateFont()
{
    if (!m_on) return;
    // Setting the same font again changes nothing; setting another and back propagates anew.
    QWidget* central = m_window.centralWidget();
    const QFont larger = central->font();
    central->setFont(m_centralFont);
    central->setFont(larger);
}

QString PresentationMode::expressionText() const
{
    return m_expression->text();
}

QString PresentationMode::stepText() const
{
    return m_step->text();
}

void PresentationMode::refresh()
{
    if (!m_on) return;
    const Workspace& ws = m_window.document()->workspace();
    const OpDef* def = findOp(ws.op);
    m_expression->setText(def ? requestText(*def, ws.attrs) : QString::fromStdString(ws.op));
    const DecodeStepper* stepper = m_window.stepper();
    const int count = stepper->stepCount();
    QString text;
    if (const Step* step = stepper->current()) {
        text = tr("Step %1 of %2: %3")
                   .arg(stepper->currentStep() + 1)
                   .arg(count)
                   .arg(QString::fromStdString(step->title));
        const QString detail = QString::fromStdString(step->detail).trimmed();
        if (!detail.isEmpty()) text += u'\n' + detail;
    } else if (count > 0) {
        text = count == 1 ? tr("1 decode step: Alt+Right shows it")
                          : tr("%1 decode steps: Alt+Right walks through them").arg(count);
    } else if (!m_window.message().isEmpty()) {
        text = plainText(m_window.message());
    }
    m_step->setText(text);
    m_banner->setAccessibleName(tr("Presentation: %1").arg(m_expression->text()));
}

} // namespace ss::ui
