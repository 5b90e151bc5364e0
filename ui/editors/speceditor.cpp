// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editors/speceditor.h"

#include "model/pasted_code.h"
#include "ui/editors/workbenchupdate.h"
#include "ui/views/palette.h"

#include <QAbstractButton>
#include <QCoreApplication>
#include <QHelpEvent>
#include <QInputMethodEvent>
#include <QKeyEvent>
#include <QTextCharFormat>
#include <QTextLayout>
#include <QToolTip>

#include <algorithm>

namespace ss::ui {

namespace {

constexpr int kHistoryLimit = 50;

struct TokenColours
{
    QColor name, number, colon, none, ellipsis, lit, error;
};

TokenColours coloursFor(const QPalette& palette)
{
    const auto c = [&](ColorRole role) { return roleColor(role, palette); };
    return {c(ColorRole::SyntaxName), c(ColorRole::SyntaxNumber),   c(ColorRole::SyntaxColon),
            c(ColorRole::SyntaxNone), c(ColorRole::SyntaxEllipsis), c(ColorRole::SyntaxLit),
            c(ColorRole::SyntaxError)};
}

QTextLayout::FormatRange range(int start, int length, const QTextCharFormat& format)
{
    QTextLayout::FormatRange r;
    r.start = start;
    r.length = length;
    r.format = format;
    return r;
}

QTextCharFormat foreground(const QColor& colour, bool bold = false)
{
    QTextCharFormat f;
    f.setForeground(colour);
    if (bold) f.setFontWeight(QFont::Bold);
    return f;
}

enum class TokenKind { Number, Colon, Ellipsis, Name, NewAxis, Other };

struct Token
{
    int begin, length;
    TokenKind kind;
};

// A lexical split: it must work on unfinished text, so it never needs a successful parse. It
// serves the colouring and the error mark, so both see the same tokens.
std::vector<Token> lexTokens(const QString& text)
{
    std::vector<Token> tokens;
    const int n = int(text.size());
    const auto wordEnd = [&](int j) {
        while (j < n && (text[j].isLetterOrNumber() || text[j] == u'_' || text[j] == u'.'))
            ++j;
        return j;
    };
    int i = 0;
    while (i < n) {
        const QChar ch = text[i];
        if (ch.isDigit() || (ch == u'-' && i + 1 < n && text[i + 1].isDigit())) {
            const int j = wordEnd(i + 1);
            tokens.push_back({i, j - i, TokenKind::Number});
            i = j;
        } else if (ch == u':') {
            tokens.push_back({i++, 1, TokenKind::Colon});
        } else if (text.mid(i, 3) == QLatin1String("...")) {
            tokens.push_back({i, 3, TokenKind::Ellipsis});
            i += 3;
        } else if (ch.isLetter() || ch == u'_') {
            const int j = wordEnd(i + 1);
            const QString word = text.mid(i, j - i);
            const bool newAxis =
                word == QLatin1String("None") || word.endsWith(QLatin1String("newaxis"));
            tokens.push_back({i, j - i, newAxis ? TokenKind::NewAxis : TokenKind::Name});
            i = j;
        } else {
            if (!ch.isSpace()) tokens.push_back({i, 1, TokenKind::Other});
            ++i;
        }
    }
    return tokens;
}

QList<QTextLayout::FormatRange> tokenFormats(const QString& text, const TokenColours& c)
{
    QList<QTextLayout::FormatRange> formats;
    for (const Token& t : lexTokens(text)) {
        switch (t.kind) {
        case TokenKind::Number: formats << range(t.begin, t.length, foreground(c.number)); break;
        case TokenKind::Colon:
            formats << range(t.begin, t.length, foreground(c.colon, true));
            break;
        case TokenKind::Ellipsis:
            formats << range(t.begin, t.length, foreground(c.ellipsis, true));
            break;
        case TokenKind::Name: formats << range(t.begin, t.length, foreground(c.name)); break;
        case TokenKind::NewAxis:
            formats << range(t.begin, t.length, foreground(c.none, true));
            break;
        case TokenKind::Other: break;
        }
    }
    return formats;
}

} // namespace

SpecEditor::SpecEditor(QWidget* parent) : QLineEdit(parent)
{
    setObjectName(QStringLiteral("specEditor"));
    setAccessibleName(tr("Slice expression"));
    setAccessibleDescription(tr("A Python subscript such as x[1, 2:4, None, ..., ::-1], or a "
                                "slicing call pasted from code such as tf.gather(x, [2, 0])"));
    setPlaceholderText(tr("x[1, 2:4, None, ..., ::-1]"));
    setClearButtonEnabled(true);
    for (QAbstractButton* clear : findChildren<QAbstractButton*>()) {
        clear->setObjectName(QStringLiteral("specEditorClear"));
        clear->setAccessibleName(tr("Clear the expression"));
    }
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::TypeWriter);
    mono.setPointSizeF(font().pointSizeF() * 1.15);
    setFont(mono);
    connect(this, &QLineEdit::textChanged, this, &SpecEditor::refreshFormats);
    // Every change but the workbench's own is the user's, however it came (typing, paste,
    // setText, an assistive technology, the automation channel).
    onFieldEdited(this, this, [this](const QString& text) {
        if (!m_recalling) m_historyIndex = -1;
        // A call pasted from code switches the op (the reader queues that: this field goes with
        // the old op's editor); one that does not read keeps the expression, marked, with why.
        if (m_callReader && model::looksLikePastedCode(text.toStdString())) {
            const CallResult result = m_callReader(text);
            if (!result.ok) setError(result.position, result.message);
            setCallError(result.ok ? QString() : result.message);
            return;
        }
        setCallError(QString());
        emit expressionEdited(text);
    });
}

void SpecEditor::setCallError(const QString& error)
{
    if (error == m_callError) return;
    m_callError = error;
    emit callErrorChanged();
}

void SpecEditor::setExpression(const QString& text)
{
    setCallError(QString());
    showFieldText(this, text);
}

void SpecEditor::setError(std::optional<int> position, const QString& message)
{
    if (position == m_errorPosition && message == m_errorMessage) return;
    m_errorPosition = position;
    m_errorMessage = message;
    refreshFormats();
}

std::optional<SpecEditor::Range> SpecEditor::errorRange() const
{
    if (!m_errorPosition || text().isEmpty()) return std::nullopt;
    // Past the end ("x[1" lacks its bracket) the last character carries the mark; otherwise the
    // whole token the position falls in (the engine reports only where the problem starts).
    const int at = std::clamp(*m_errorPosition, 0, int(text().size()) - 1);
    for (const Token& t : lexTokens(text()))
        if (at >= t.begin && at < t.begin + t.length) return Range(t.begin, t.begin + t.length);
    return Range(at, at + 1);
}

void SpecEditor::setLitRanges(std::vector<Range> ranges)
{
    if (ranges == m_lit) return;
    m_lit = std::move(ranges);
    refreshFormats();
}

void SpecEditor::addToHistory(const QString& expression)
{
    if (expression.trimmed().isEmpty()) return;
    m_history.removeAll(expression);
    m_history.append(expression);
    while (m_history.size() > kHistoryLimit)
        m_history.removeFirst();
}

void SpecEditor::setHistory(const QStringList& history)
{
    m_history = history.mid(std::max<qsizetype>(0, history.size() - kHistoryLimit));
    m_historyIndex = -1;
}

bool SpecEditor::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (m_errorPosition) {
            const int at = cursorPositionAt(help->pos());
            const int column = *m_errorPosition;
            const QString where = tr("Column %1: ").arg(column + 1);
            QToolTip::showText(help->globalPos(),
                               std::abs(at - column) <= 1
                                   ? where + m_errorMessage
                                   : tr("%1%2 (underlined)").arg(where, m_errorMessage),
                               this);
        } else {
            QToolTip::showText(help->globalPos(),
                               tr("Integers index, a:b:c slices, None adds an axis, ... stands "
                                  "for the remaining dimensions. Up/Down recall earlier "
                                  "expressions."),
                               this);
        }
        return true;
    }
    return QLineEdit::event(event);
}

void SpecEditor::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Up && event->modifiers() == Qt::NoModifier) {
        recall(-1);
        return;
    }
    if (event->key() == Qt::Key_Down && event->modifiers() == Qt::NoModifier) {
        recall(+1);
        return;
    }
    QLineEdit::keyPressEvent(event);
}

void SpecEditor::changeEvent(QEvent* event)
{
    QLineEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) refreshFormats();
}

void SpecEditor::recall(int step)
{
    if (m_history.isEmpty()) return;
    int index = m_historyIndex < 0 ? int(m_history.size()) : m_historyIndex;
    if (m_historyIndex < 0) m_draft = text();
    index = std::clamp(index + step, 0, int(m_history.size()));
    m_historyIndex = index == int(m_history.size()) ? -1 : index;
    const QString recalled = m_historyIndex < 0 ? m_draft : m_history[index];
    if (recalled == text()) return;
    m_recalling = true;
    setText(recalled); // an edit like any other: reported through onFieldEdited
    m_recalling = false;
}

void SpecEditor::refreshFormats()
{
    const TokenColours colours = coloursFor(palette());
    QList<QTextLayout::FormatRange> formats = tokenFormats(text(), colours);
    for (const auto& [begin, end] : m_lit) {
        QTextCharFormat lit;
        lit.setBackground(colours.lit);
        formats << range(begin, end - begin, lit);
    }
    if (const auto bad = errorRange()) {
        QTextCharFormat wave;
        wave.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        wave.setUnderlineColor(colours.error);
        formats << range(bad->first, bad->second - bad->first, wave);
    }
    // QLineEdit draws formats only through the input-method channel; positions there are
    // relative to the cursor.
    QList<QInputMethodEvent::Attribute> attributes;
    for (const auto& f : formats)
        attributes << QInputMethodEvent::Attribute(QInputMethodEvent::TextFormat,
                                                   f.start - cursorPosition(), f.length, f.format);
    QInputMethodEvent event(QString(), attributes);
    QCoreApplication::sendEvent(this, &event);
}

} // namespace ss::ui
