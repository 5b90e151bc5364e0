// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/messagestrip.h"

#include "ui/views/palette.h"
#include "ui/views/plaintext.h"

#include <QApplication>
#include <QEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QTextDocument>
#include <QTextLayout>

#include <cmath>

namespace ss::ui {

namespace {

constexpr int kPadding = 6;
constexpr int kBorder = 1;

} // namespace

MessageStrip::MessageStrip(int lines, QWidget* parent) : QLabel(parent), m_lines(lines)
{
    setObjectName(QStringLiteral("messageStrip"));
    setAccessibleName(tr("Error message"));
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    // No indent: QLabel's default (half an "x" above and left of the text of a label with a
    // frame, which the border is) is room the lines reserved below do not count, and it pushed
    // the second line half out of the strip.
    setIndent(0);
    refit();
}

void MessageStrip::setMessage(const QString& html, Kind kind)
{
    if (html == m_message && kind == m_kind) return;
    m_message = html;
    m_kind = kind;
    if (html.isEmpty()) m_expanded = false;
    // Its name says what it is, its description what it says.
    setAccessibleName(kind == Kind::Error ? tr("Error message") : tr("Note"));
    setAccessibleDescription(plainText(html));
    refit();
}

void MessageStrip::setReservesRoom(bool reserves)
{
    m_reservesRoom = reserves;
    refit();
}

void MessageStrip::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    refit();
}

void MessageStrip::changeEvent(QEvent* event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange) refit();
    // A new theme (style, then palette): the colours follow, once the application's palette is
    // the new one (it is not yet while the style changes). Setting the same style sheet again is
    // skipped in refit, so the palette change the style sheet itself makes ends there.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        QMetaObject::invokeMethod(this, &MessageStrip::refit, Qt::QueuedConnection);
}

void MessageStrip::mouseReleaseEvent(QMouseEvent* event)
{
    QLabel::mouseReleaseEvent(event);
    // A click that ends a text selection is not a request to open or close.
    if (event->button() == Qt::LeftButton && !hasSelectedText() && (m_elided || m_expanded))
        setExpanded(!m_expanded);
}

void MessageStrip::keyPressEvent(QKeyEvent* event)
{
    const int key = event->key();
    if ((key == Qt::Key_Return || key == Qt::Key_Enter || key == Qt::Key_Space) &&
        (m_elided || m_expanded)) {
        setExpanded(!m_expanded);
        return;
    }
    QLabel::keyPressEvent(event);
}

void MessageStrip::setExpanded(bool expanded)
{
    if (expanded == m_expanded || (expanded && m_message.isEmpty())) return;
    m_expanded = expanded;
    refit();
}

QColor MessageStrip::background() const
{
    return roleColor(m_kind == Kind::Error ? ColorRole::ErrorTint : ColorRole::NoticeTint,
                     QApplication::palette(this));
}

QColor MessageStrip::foreground() const
{
    return QApplication::palette(this).color(QPalette::Text);
}

QColor MessageStrip::border() const
{
    return roleColor(m_kind == Kind::Error ? ColorRole::ErrorBorder : ColorRole::NoticeBorder,
                     QApplication::palette(this));
}

void MessageStrip::refit()
{
    if (!m_reservesRoom) setVisible(!m_message.isEmpty());
    const int lineHeight = fontMetrics().lineSpacing();
    const int room = m_lines * lineHeight + 2 * (kPadding + kBorder);
    const QString sheet =
        m_message.isEmpty()
            ? QStringLiteral("QLabel { padding: %1px; border: %2px solid transparent; }")
                  .arg(kPadding)
                  .arg(kBorder)
            : QStringLiteral("QLabel { background-color: %3; color: %4; "
                             "border: %2px solid %5; border-radius: 4px; padding: %1px; }")
                  .arg(kPadding)
                  .arg(kBorder)
                  .arg(background().name(), foreground().name(), border().name());
    if (sheet != styleSheet()) setStyleSheet(sheet);
    setToolTip(m_message);
    const int width = contentsRect().width() - 2 * kPadding;
    QTextDocument doc;
    doc.setDefaultFont(font());
    doc.setDocumentMargin(0);
    doc.setHtml(m_message);
    doc.setTextWidth(std::max(1, width));
    const bool tooLong = width > 0 && doc.size().height() > m_lines * lineHeight + 1;
    // Before it has a width (a start error, set before the window is shown) an open strip
    // stays open; once laid out, one whose message fits closes.
    if (width > 0 && !tooLong) m_expanded = false;
    m_elided = tooLong && !m_expanded;
    // Only a cut message takes focus: Enter or Space opens it from the keyboard.
    setFocusPolicy(tooLong ? Qt::StrongFocus : Qt::NoFocus);
    setFixedHeight(m_expanded && tooLong
                       ? int(std::ceil(doc.size().height())) + 2 * (kPadding + kBorder)
                       : room);
    if (!m_elided) {
        setText(m_message);
        return;
    }
    // Too long for the room: the plain words, cut at the end of the last line that fits.
    const QString plain = doc.toPlainText().simplified();
    QTextLayout layout(plain, font());
    layout.beginLayout();
    int lastStart = 0;
    for (int line = 0; line < m_lines; ++line) {
        QTextLine l = layout.createLine();
        if (!l.isValid()) break;
        l.setLineWidth(width);
        lastStart = l.textStart();
    }
    layout.endLayout();
    const QString lastLine = fontMetrics().elidedText(plain.mid(lastStart), Qt::ElideRight, width);
    setText((plain.left(lastStart) + lastLine).toHtmlEscaped());
}

} // namespace ss::ui
