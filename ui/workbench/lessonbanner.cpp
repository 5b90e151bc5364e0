// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/lessonbanner.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>

#include <algorithm>
#include <climits>

namespace ss::ui {

namespace {

/// A lesson's explanation gets at least this many lines, and at most this part of the window's
/// height before it scrolls.
constexpr int kMinLines = 2;
constexpr int kMaxWindowShare = 3;
/// Screens shorter than this (logical pixels) keep the explanation to its least.
constexpr int kShortScreen = 640;

} // namespace

LessonBanner::LessonBanner(QWidget* parent)
    : QWidget(parent), m_title(new QLabel), m_scroll(new QScrollArea), m_text(new QLabel),
      m_next(new QPushButton(tr("Next lesson ▶")))
{
    setObjectName(QStringLiteral("lessonBanner"));
    m_title->setObjectName(QStringLiteral("lessonTitle"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_text->setObjectName(QStringLiteral("lessonText"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_next->setObjectName(QStringLiteral("nextLesson"));
    m_next->setAccessibleName(tr("Open the next lesson"));
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title, 0, 0);
    layout->addWidget(m_next, 0, 1, Qt::AlignRight);
    m_scroll->setObjectName(QStringLiteral("lessonTextScroll"));
    m_scroll->setAccessibleName(tr("Lesson explanation"));
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setWidget(m_text);
    layout->addWidget(m_scroll, 1, 0, 1, 2);
    fitText();
    connect(m_next, &QPushButton::clicked, this, &LessonBanner::nextLessonClicked);
}

void LessonBanner::showLesson(const QString& title, const QString& explanation, bool hasNext)
{
    setVisible(!title.isEmpty());
    m_title->setText(title);
    QString html;
    for (const QString& paragraph : explanation.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts))
        html += QStringLiteral("<p>%1</p>").arg(paragraph.toHtmlEscaped().replace(u'\n', u' '));
    m_text->setText(html);
    m_next->setVisible(hasNext);
    fitText();
}

void LessonBanner::fitText()
{
    // A fixed number of lines cut a long first lesson after four and left room unused below;
    // the text's own height at this width (paragraph margins included) is what it needs.
    const int line = m_text->fontMetrics().lineSpacing();
    // The width is the one left beside a vertical scroll bar, so that one is never needed for
    // a text that fits (it would narrow the text and make it one line too tall).
    const int width = contentsRect().width() - m_scroll->verticalScrollBar()->sizeHint().width();
    const int needed = m_text->heightForWidth(std::max(width, line)) + 2 * m_scroll->frameWidth();
    // Up to a third of the window; on a screen too short for the editors and views with more
    // (960 x 540: the whole first lesson made the window 600 px tall), two lines that scroll.
    const int screenHeight = screen() ? screen()->availableGeometry().height() : INT_MAX;
    const int most = screenHeight < kShortScreen
                         ? kMinLines * line
                         : std::max(kMinLines * line, window()->height() / kMaxWindowShare);
    const int height = std::clamp(needed, kMinLines * line, most);
    if (m_scroll->minimumHeight() != height || m_scroll->maximumHeight() != height)
        m_scroll->setFixedHeight(height);
}

void LessonBanner::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitText();
}

bool LessonBanner::event(QEvent* event)
{
    // A new font (presentation mode's large type) changes the lines' height.
    const bool handled = QWidget::event(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::Show) {
        fitText();
        // The labels' own fonts may follow after this widget's.
        QMetaObject::invokeMethod(this, &LessonBanner::fitText, Qt::QueuedConnection);
    }
    return handled;
}

} // namespace ss::ui
