extension Tokenizer {
    /// Ids for a prompt of template markup and text (`ChatTemplate.segments`): each control segment
    /// becomes its single id; runs of text are tokenized without parsing control tokens, so markup
    /// typed or pasted into a message cannot open or close a turn. Adjacent text segments are joined
    /// first, so the ids equal tokenizing the whole prompt with control tokens parsed whenever the
    /// text holds no markup.
    public func encode(_ segments: [PromptSegment], addBOS: Bool = true) -> [Int32] {
        var ids: [Int32] = addBOS && self.addBOS ? [bosID] : []
        var run = ""
        func flushText() {
            if !run.isEmpty { ids += encode(run, addBOS: false, parseSpecial: false) }
            run = ""
        }
        for segment in segments {
            switch segment {
            case .text(let text): run += text
            case .control(let piece):
                flushText()
                if let id = id(of: piece) { ids.append(id) } else { ids += encode(piece, addBOS: false, parseSpecial: true) }
            }
        }
        flushText()
        return ids
    }
}
