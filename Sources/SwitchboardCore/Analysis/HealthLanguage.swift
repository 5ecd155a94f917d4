/// Health vocabulary of one language, as data: adding a language is adding one value to `all`.
///
/// Languages written with spaces give words that join the `Lexicon` (so `HealthRecognizer` applies its
/// person-and-condition rules to them unchanged); languages written without spaces give phrases found
/// by substring, where a condition counts when a person or a clinical cue appears in the same text.
/// Words are written as people type them; the normalizer drops accents and lowers capitals first.
package struct HealthLanguage: Sendable {
    package var code: String
    /// Spaced languages: words per lexicon flag (`.condition`, `.medication`, `.healthVerb`, …).
    package var words: [(Lexicon, String)]
    /// Unspaced languages: conditions and drugs, cues tying them to a person, and clinical cues.
    package var conditions: [String]
    package var personCues: [String]
    package var clinicalCues: [String]

    package init(code: String, words: [(Lexicon, String)] = [], conditions: [String] = [], personCues: [String] = [],
                clinicalCues: [String] = []) {
        self.code = code; self.words = words; self.conditions = conditions
        self.personCues = personCues; self.clinicalCues = clinicalCues
    }
}

extension HealthLanguage {
    package static let all: [HealthLanguage] = [.english, .spanish, .french, .german, .russian, .chinese, .japanese]

    static let english = HealthLanguage(code: "en", words: [
        (.condition, "hpv warts prediabetic psychiatric rehab hospitalized tumor tumors chlamydia"),
        (.medication, "prep"),
        (.healthVerb, "tested gave give gives showed found revealed detected admitted"),
        (.healthModifier, "genital to positive for"),
        (.testNoun, "test tests tested biopsy scan scans mammogram results result bloodwork mri smear screening"),
        (.testResult, "positive malignant abnormal cancerous reactive"),
        (.pastResult, "came was were showed returned confirmed"),
    ])

    static let spanish = HealthLanguage(code: "es", words: [
        (.firstPerson, "yo me mi mis tengo tomo soy estoy"),
        (.possessive, "mi mis su sus"),
        (.relation, "madre padre mama papa hijo hija esposo esposa marido mujer hermano hermana novio novia abuela abuelo"),
        (.condition, """
            diabetes cancer depresion ansiedad embarazada vih sida autismo asma epilepsia demencia alzheimer \
            hipertension hepatitis herpes clamidia leucemia tumor esquizofrenia bipolar artritis
            """),
        (.medication, "insulina metformina sertralina quimioterapia quimio antidepresivos litio"),
        (.healthVerb, "tengo tiene tienen tomo toma padezco padece sufro sufre"),
        (.healthStrong, "diagnosticaron diagnosticado diagnosticada diagnostico recetaron"),
        (.healthModifier, "de el la un una tipo del"),
        (.copula, "soy estoy es esta"),
    ])

    static let french = HealthLanguage(code: "fr", words: [
        (.firstPerson, "je jai moi mon ma mes suis"),
        (.possessive, "mon ma mes son sa ses"),
        (.relation, "mere pere fils fille mari femme frere soeur copain copine grandmere grandpere"),
        (.condition, """
            diabete cancer depression anxiete enceinte vih sida autiste autisme asthme epilepsie demence alzheimer \
            hypertension hepatite herpes chlamydia leucemie tumeur schizophrenie bipolaire seropositif seropositive maladie
            """),
        (.medication, "insuline metformine sertraline chimiotherapie chimio antidepresseurs lithium"),
        (.healthVerb, "jai ai prends prend souffre souffert"),
        (.healthStrong, "diagnostique diagnostiquee diagnostic prescrit"),
        (.healthModifier, "de du des le la les un une type"),
        (.copula, "suis est"),
    ])

    static let german = HealthLanguage(code: "de", words: [
        (.firstPerson, "ich mir mich mein meine meinen"),
        (.possessive, "mein meine meinen meiner sein seine ihr ihre"),
        (.relation, "mutter vater sohn tochter mann frau bruder schwester freund freundin oma opa"),
        (.condition, """
            diabetes krebs brustkrebs lungenkrebs depression depressionen angststorung schwanger hiv aids autismus \
            asthma epilepsie demenz alzheimer bluthochdruck hepatitis herpes chlamydien leukamie tumor schizophrenie
            """),
        (.medication, "insulin metformin sertralin chemotherapie chemo antidepressiva lithium"),
        (.healthVerb, "habe hat haben nehme nimmt leide leidet"),
        (.healthStrong, "diagnostiziert diagnose verschrieben"),
        (.healthModifier, "eine einen ein typ an"),
        (.copula, "bin ist"),
    ])

    static let russian = HealthLanguage(code: "ru", words: [
        (.firstPerson, "я меня мне мой моя моей моего мои"),
        (.possessive, "мой моя моей моего мои его ее"),
        (.relation, "мама мамы маме мать отец отца папа сын сына дочь дочери муж жена брат сестра"),
        (.condition, """
            диабет диабета диабетом рак рака раком депрессия депрессией депрессию беременна вич спид аутизм астма \
            эпилепсия деменция гипертония гепатит герпес хламидиоз лейкоз опухоль шизофрения
            """),
        (.medication, "инсулин метформин сертралин химиотерапия антидепрессанты"),
        (.healthVerb, "меня принимаю принимает болею болеет болен больна"),
        (.healthStrong, "диагноз диагностировали"),
        (.healthModifier, "второго первого типа"),
        (.copula, "я"),  // no copula in the present tense: "я беременна"
    ])

    static let chinese = HealthLanguage(
        code: "zh",
        conditions: ["糖尿病", "抑郁症", "抑郁", "癌症", "乳腺癌", "肺癌", "癌", "怀孕", "艾滋病", "高血压", "自闭症", "乙肝",
                     "焦虑症", "精神分裂", "舍曲林", "胰岛素", "抗抑郁药", "化疗", "HIV"],
        personCues: ["我有", "我得", "我被", "我是", "我在", "我怀", "我的", "我妈", "我爸", "我儿", "我女", "我老", "我丈", "我妻", "说我"],
        clinicalCues: ["诊断", "確診", "确诊", "处方", "阳性"])

    static let japanese = HealthLanguage(
        code: "ja",
        conditions: ["糖尿病", "うつ病", "鬱病", "がん", "癌", "乳がん", "妊娠", "自閉症", "高血圧", "認知症", "HIV", "抗うつ薬",
                     "インスリン", "抗がん剤", "統合失調症"],
        personCues: ["私", "僕", "俺", "母", "父", "息子", "娘", "夫", "妻"],
        clinicalCues: ["診断", "処方", "陽性", "治療中", "飲んでいます", "しています", "ました"])
}
