/// Languages of Asia and Africa, and Turkish. Arabic-script words are also read past one to three
/// attached letters (the article and prepositions: "بالسكري" reads as "سكري"); Han and kana entries are
/// found anywhere in a run; Korean and Indic entries are prefix stems, since particles and case endings
/// attach to the end of the word. Many of these languages leave the pronoun out, so first-person forms
/// carry it ("hamileyim", "నాకు", "저는", and Japanese family words, which mean one's own family).
extension SpecialCategoryLanguage {
    static let turkish = SpecialCategoryLanguage(code: "tr", entries: [
        (.selfReference, """
            ben benim bende bana annem babam esim oglum kizim kardesim kullaniyorum aliyorum hastasiyim \
            hamileyim escinselim temsilcisiyim uyesiyim kaydim
            """),
        (.relation, "annem babam esim oglum kizim kardesim"),
        (.hypothetical, "eger"),
        (.week, "hafta haftalik haftalık"),
        (.condition, "diyabet* seker_hastasi* seker_hastaligi* kanser* tumor* astim epilepsi demans alzheimer* parkinson* tansiyon"),
        (.pregnancy, "hamile* gebe* dusuk kurtaj"),
        (.mental, "depresyon* anksiyete bipolar sizofren* intihar* otizm*"),
        (.disability, "engelli* tekerlekli_sandalye gorme_engelli"),
        (.addiction, "bagimli* alkolik"),
        (.medication, "ilac* insulin*"),
        (.orientation, "escinsel* gey lezbiyen* biseksuel*"),
        (.gender, "trans"),
        (.religion, "musluman* hristiyan* ateist* alevi* yahudi*"),
        (.politics, "akp chp mhp hdp"),
        (.partyWord, "parti partisi"),
        (.membership, "uye uyesi uyesiyim temsilci temsilcisi temsilcisiyim"),
        (.union, "sendika*"),
        (.criminal, "sabika* hapis* cezaevi* mahkum*"),
        (.immigration, "multeci* kacak iltica*"),
        (.fiction, "dizide karakter film"),
    ])

    static let arabic = SpecialCategoryLanguage(code: "ar", entries: [
        (.selfReference, """
            أنا انا عندي لدي لديّ أعاني اعاني أتناول اتناول آخذ اخذ أمي امي أبي ابي زوجي زوجتي ابني ابنتي أخي اخي أختي اختي
            """),
        (.relation, "أمي امي أبي ابي زوجي زوجتي ابني ابنتي أخي اخي أختي اختي"),
        (.hypothetical, "إذا اذا لو هل"),
        (.week, "أسبوع اسبوع الأسبوع الاسبوع أسابيع اسابيع"),
        (.numberWord, "التاسع تسعة التاسعة"),
        (.condition, "سكري* السكري سرطان* ورم* ربو صرع خرف الزهايمر باركنسون ضغط_الدم مصاب* مصابة"),
        (.pregnancy, "حامل* الحمل إجهاض اجهاض"),
        (.mental, "اكتئاب* ثنائي_القطب فصام انتحار* توحد"),
        (.hiv, "الإيدز الايدز إيدز ايدز نقص_المناعة"),
        (.disability, "أعمى اعمى كفيف* أصم اصم كرسي_متحرك إعاقة اعاقة معاق*"),
        (.addiction, "إدمان ادمان مدمن*"),
        (.medication, "دواء أدوية ادوية إنسولين انسولين"),
        (.orientation, "مثلي_الجنس مثلية مثليي مثليين"),
        (.religion, "مسلم مسيحي* يهودي* ملحد* شيعي* سني"),
        (.partyWord, "حزب الحزب"),
        (.membership, "عضو عضوة"),
        (.union, "نقابة* النقابة"),
        (.criminal, "سجل_جنائي سجن* السجن محكوم*"),
        (.immigration, "لاجئ* اللجوء لجوء غير_شرعي غير_قانوني"),
        (.fiction, "مسلسل* فيلم رواية"),
    ])

    static let urdu = SpecialCategoryLanguage(code: "ur", entries: [
        (.selfReference, "میں مجھے میرا میری میرے ہمارے"),
        (.hypothetical, "اگر"),
        (.week, "ہفتے ہفتہ"),
        (.condition, "شوگر ذیابیطس کینسر* بیماری* دمہ مرگی بلڈ_پریشر"),
        (.pregnancy, "حاملہ"),
        (.mental, "ڈپریشن* ذہنی خودکشی* آٹزم"),
        (.hiv, "ایڈز ایچ_آئی_وی"),
        (.disability, "معذور* نابینا"),
        (.medication, "دوا دوائی"),
        (.orientation, "ہم_جنس"),
        (.religion, "مسلمان عیسائی ہندو احمدی*"),
        (.partyWord, "پارٹی جماعت"),
        (.membership, "رکن ممبر"),
        (.criminal, "مجرمانہ جیل"),
        (.immigration, "پناہ_گزین غیر_قانونی"),
    ])

    static let hindi = SpecialCategoryLanguage(code: "hi", entries: [
        (.selfReference, "मैं मुझे मेरा मेरी मेरे हूँ हूं मुझको"),
        (.hypothetical, "अगर यदि"),
        (.week, "हफ्ते हफ़्ते सप्ताह"),
        (.condition, "मधुमेह* डायबिटीज* शुगर कैंसर* ट्यूमर* अस्थमा मिर्गी ब्लड_प्रेशर बीमारी*"),
        (.pregnancy, "गर्भवती गर्भ* प्रेग्नेंट गर्भपात"),
        (.mental, "डिप्रेशन* अवसाद* आत्महत्या* ऑटिज़्म ऑटिज्म"),
        (.hiv, "एचआईवी एड्स"),
        (.disability, "विकलांग* अंधा अंधी बहरा व्हीलचेयर"),
        (.addiction, "नशा* लत"),
        (.medication, "दवा* इंसुलिन"),
        (.orientation, "समलैंगिक*"),
        (.religion, "मुसलमान मुस्लिम हिंदू ईसाई सिख दलित"),
        (.politics, "भाजपा कांग्रेस बीजेपी"),
        (.partyWord, "पार्टी दल"),
        (.membership, "सदस्य"),
        (.criminal, "आपराधिक जेल"),
        (.immigration, "शरणार्थी अवैध"),
        (.fiction, "फिल्म किरदार उपन्यास सीरियल"),
    ])

    static let marathi = SpecialCategoryLanguage(code: "mr", entries: [
        (.selfReference, "मी मला माझा माझी माझे माझ्या"),
        (.condition, "मधुमेह* कर्करोग* कॅन्सर*"),
        (.pregnancy, "गर्भवती गरोदर"),
        (.mental, "नैराश्य*"),
    ])

    static let bengali = SpecialCategoryLanguage(code: "bn", entries: [
        (.selfReference, "আমি আমার আমাকে"),
        (.week, "সপ্তাহ*"),
        (.numberWord, "নয়"),
        (.condition, "ডায়াবেটিস* ক্যান্সার* ক্যানসার* হাঁপানি"),
        (.pregnancy, "গর্ভবতী*"),
        (.mental, "বিষণ্ণ* বিষন্ন* ডিপ্রেশন* আত্মহত্যা* অটিজম"),
        (.hiv, "এইচআইভি এইডস"),
        (.orientation, "সমকামী*"),
        (.religion, "মুসলিম হিন্দু খ্রিস্টান"),
    ])

    static let telugu = SpecialCategoryLanguage(code: "te", entries: [
        (.selfReference, "నేను నాకు నా మా గర్భవతిని"),
        (.condition, "డయాబెటిస్* మధుమేహం* క్యాన్సర్* షుగర్"),
        (.pregnancy, "గర్భవతి* గర్భం"),
        (.mental, "డిప్రెషన్* ఆత్మహత్య*"),
        (.hiv, "హెచ్ఐవి"),
    ])

    static let tamil = SpecialCategoryLanguage(code: "ta", entries: [
        (.selfReference, "நான் எனக்கு என் என்னுடைய எனது இருக்கிறேன்"),
        (.condition, "நீரிழிவு* சர்க்கரை_நோய் புற்றுநோய்* கேன்சர்*"),
        (.pregnancy, "கர்ப்ப*"),
        (.mental, "மனச்சோர்வு* மன_அழுத்த* தற்கொலை*"),
        (.hiv, "எச்ஐவி"),
    ])

    static let indonesian = SpecialCategoryLanguage(code: "id", entries: [
        (.selfReference, "saya aku ku gue sy"),
        (.relation, "ibu ayah suami istri anak kakak adik pacar"),
        (.hypothetical, "jika kalau apakah"),
        (.week, "minggu"),
        (.condition, "diabetes kencing_manis kanker* tumor asma epilepsi stroke darah_tinggi"),
        (.pregnancy, "hamil keguguran aborsi"),
        (.mental, "depresi* gangguan_jiwa bunuh_diri cemas bipolar skizofrenia autis*"),
        (.hiv, "odha"),
        (.disability, "tunanetra tuli kursi_roda disabilitas cacat"),
        (.addiction, "kecanduan pecandu rehabilitasi"),
        (.medication, "obat antidepresan"),
        (.orientation, "gay lesbian biseksual homoseksual"),
        (.religion, "muslim kristen katolik hindu buddha ateis"),
        (.partyWord, "partai"),
        (.membership, "anggota kader"),
        (.union, "serikat_pekerja serikat_buruh"),
        (.criminal, "dipenjara penjara narapidana catatan_kriminal"),
        (.immigration, "imigran_gelap pengungsi suaka"),
        (.fiction, "film tokoh sinetron novel"),
    ])

    static let vietnamese = SpecialCategoryLanguage(code: "vi", entries: [
        (.selfReference, "tôi toi mình minh tui"),
        (.hypothetical, "nếu neu"),
        (.week, "tuần tuan"),
        (.condition, "tiểu_đường tieu_duong ung_thư ung_thu huyết_áp_cao hen_suyễn động_kinh"),
        (.pregnancy, "mang_thai có_thai có_bầu sảy_thai phá_thai"),
        (.mental, "trầm_cảm tram_cam lo_âu tự_tử tu_tu tự_hại tự_kỷ"),
        (.disability, "khiếm_thị khuyết_tật xe_lăn"),
        (.addiction, "nghiện cai_nghiện"),
        (.orientation, "đồng_tính dong_tinh song_tính"),
        (.religion, "công_giáo phật_giáo theo_đạo hồi_giáo"),
        (.partyWord, "đảng"),
        (.membership, "đảng_viên thành_viên"),
        (.union, "công_đoàn"),
        (.criminal, "tiền_án tien_an đi_tù ngồi_tù"),
        (.immigration, "bất_hợp_pháp tị_nạn"),
        (.fiction, "phim nhân_vật tiểu_thuyết"),
    ])

    static let swahili = SpecialCategoryLanguage(code: "sw", entries: [
        (.selfReference, "mimi nina yangu wangu wangu ninatumia nilifungwa"),
        (.hypothetical, "kama"),
        (.week, "wiki"),
        (.numberWord, "moja mbili tatu nne tano sita saba nane tisa kumi"),
        (.condition, "kisukari saratani kansa pumu kifafa shinikizo_la"),
        (.pregnancy, "mimba mjamzito"),
        (.mental, "msongo_wa unyogovu kujiua usonji"),
        (.hiv, "vvu ukimwi"),
        (.disability, "kipofu kiziwi ulemavu"),
        (.orientation, "shoga msagaji"),
        (.religion, "mwislamu muislamu mkristo"),
        (.criminal, "gerezani jela nilifungwa"),
        (.immigration, "mkimbizi wakimbizi"),
    ])

    /// Nigerian Pidgin is written with English words, which the English table already reads.
    static let pidgin = SpecialCategoryLanguage(code: "pcm", entries: [
        (.pregnancy, "carry_belle get_belle"),
        (.selfReference, "mi"),
    ])

    static let chinese = SpecialCategoryLanguage(code: "zh", entries: [
        (.selfReference, "我 本人 俺"),
        (.generic, "我们 大家 人们 患者"),
        (.relation, "老公 老婆 丈夫 妻子 儿子 女儿 妈妈 爸爸"),
        (.hypothetical, "如果 假如"),
        (.topic, "什么是 关于 研究 了解 知道"),
        (.week, "周 星期"),
        (.numberWord, "一 二 三 四 五 六 七 八 九 十"),
        (.condition, "糖尿病 癌 肿瘤 白血病 哮喘 癫痫 痴呆 高血压 乙肝 丙肝 中风 心脏病 肾病 透析 阿尔茨海默 帕金森 梅毒 淋病 手术"),
        (.pregnancy, "怀孕 怀了 流产 堕胎"),
        (.mental, "抑郁 焦虑 双相 精神分裂 自杀 自残 自闭症 多动症 厌食症 暴食症 恐慌症 惊恐障碍"),
        (.hiv, "艾滋 阳性"),
        (.disability, "残疾 轮椅 失明 失聪 盲人"),
        (.addiction, "戒毒 吸毒 成瘾 酗酒 美沙酮"),
        (.medication, "舍曲林 胰岛素 二甲双胍 抗抑郁药 化疗 吃药"),
        (.orientation, "同性恋 男同 女同 双性恋 出柜"),
        (.gender, "跨性别 变性"),
        (.religion, "穆斯林 基督徒 天主教徒 佛教徒 伊斯兰教 信教"),
        (.politics, "共产党 党员 民进党 国民党"),
        (.union, "工会"),
        (.criminal, "犯罪记录 坐牢 前科 判刑 入狱 服刑"),
        (.immigration, "非法移民 难民 黑户 庇护 逾期居留 非法居留"),
        (.genetic, "基因检测 指纹"),
        (.fiction, "小说 角色 电视剧 电影 主角"),
    ])

    static let japanese = SpecialCategoryLanguage(code: "ja", entries: [
        (.selfReference, "私 僕 俺 わたし 自分 うち"),
        (.relation, "夫が 夫は 夫の 妻 息子 娘 母が 母は 母の 父が 父は 父の 主人 彼氏 家内"),
        (.selfReference, "夫が 夫は 夫の 夫も 妻 息子 娘 母が 母は 母の 父が 父は 父の 主人 家内"),
        (.hypothetical, "もし"),
        (.topic, "とは について 研究"),
        (.week, "週"),
        (.condition, "糖尿病 がんです がんと がんの がんで 乳がん 肺がん 胃がん 大腸がん 癌 腫瘍 白血病 喘息 てんかん 認知症 高血圧 脳卒中 透析 アルツハイマー パーキンソン 心臓病 腎臓病 肝炎 梅毒 手術"),
        (.pregnancy, "妊娠 流産 中絶"),
        (.mental, "パニック障害 摂食障害 拒食症 過食症 ADHD うつ病 鬱病 鬱 不安障害 双極性 統合失調症 自殺 自傷 リストカット 発達障害 自閉症"),
        (.hiv, "陽性 エイズ"),
        (.disability, "車椅子 車いす 視覚障害 聴覚障害 障害者 全盲"),
        (.addiction, "依存症 アルコール依存 断酒"),
        (.medication, "抗うつ薬 インスリン 抗がん剤 服用"),
        (.orientation, "ゲイ レズビアン 同性愛 バイセクシュアル"),
        (.gender, "トランスジェンダー 性同一性障害"),
        (.religion, "キリスト教 仏教徒 イスラム教 創価学会 信者"),
        (.politics, "党員 共産党 自民党"),
        (.union, "労働組合 組合員"),
        (.criminal, "前科 刑務所 逮捕歴 服役"),
        (.immigration, "不法滞在 難民 オーバーステイ 不法就労"),
        (.fiction, "ドラマ 主人公 小説 映画 アニメ 漫画 キャラクター"),
    ])

    static let korean = SpecialCategoryLanguage(code: "ko", entries: [
        (.selfReference, "저는 제가 저 제 나는 내가 나 내 저희 우리 저의"),
        (.generic, "우리는 우리가 사람들"),
        (.hypothetical, "만약 만일"),
        (.week, "주 주차*"),
        (.condition, """
            당뇨* 간질* 심장병* 알츠하이머* 파킨슨* 투석* 항암* 암 암이 암을 암에 암으로 암입니다 유방암* 폐암* 위암* 대장암* 간암* 종양* 백혈병* 천식* 뇌전증* 치매* 고혈압* 뇌졸중*
            """),
        (.pregnancy, "임신* 유산* 낙태*"),
        (.mental, "우울증* 우울* 불안장애* 공황장애* 섭식장애* 거식증* 조울증* 조현병* 자살* 자해* 자폐* 치료중*"),
        (.hiv, "에이즈* 양성*"),
        (.disability, "휠체어* 시각장애* 청각장애* 장애인*"),
        (.addiction, "중독*"),
        (.medication, "약을 약 인슐린* 항우울제*"),
        (.orientation, "동성애* 게이* 레즈비언* 양성애*"),
        (.gender, "트랜스젠더*"),
        (.religion, "기독교* 불교* 무슬림* 천주교* 신자*"),
        (.politics, "당원* 민주당* 국민의힘*"),
        (.union, "노조* 노동조합*"),
        (.criminal, "전과* 교도소* 감옥* 수감*"),
        (.immigration, "불법체류* 난민*"),
        (.fiction, "드라마* 주인공* 소설* 영화*"),
    ])
}
