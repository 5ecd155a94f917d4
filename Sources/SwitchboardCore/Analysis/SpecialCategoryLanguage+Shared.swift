/// Vocabulary shared by every language: clinical shorthand, lab tests, drug names (international
/// nonproprietary names are spelled alike in most Latin-script languages), and English, which the other
/// languages borrow ("HIV", "gay", "PrEP").
extension SpecialCategoryLanguage {
    package static let all: [SpecialCategoryLanguage] = [
        .shared, .english, .spanish, .french, .german, .italian, .portuguese, .dutch, .polish, .russian, .swedish, .danish,
        .finnish, .greek, .czech, .romanian, .hungarian, .turkish, .arabic, .urdu, .hindi, .marathi, .bengali, .telugu,
        .tamil, .indonesian, .vietnamese, .swahili, .pidgin, .chinese, .japanese, .korean, .personal,
    ]

    static let shared = SpecialCategoryLanguage(code: "mul", entries: [
        (.clinical, """
            pt pts patient patientin dx hx rx sx tx yo yof yom bid tid qid qd qhs prn sig ddx paciente paziente \
            pacjent pacjentka pacient pacientka patient пациент пациентка
            """),
        (.condition, """
            htn t2dm t1dm dm2 iddm niddm copd chf ckd cad afib gerd osa dka nstemi stemi tia cva hcc \
            ^MI ^DM ^CA ^SOB ^UTI ^RA ^MS ^ALS ^AF ^HF
            """),
        (.mental, "mdd gad ptsd ocd adhd bpd ^SI ^HI"),
        (.hiv, "hiv hiv+ aids prep ^PEP"),
        (.lab, """
            hba1c a1c ldl hdl egfr gfr cd4 psa tsh inr creatinin* kreatinin* triglycerid* cholesterol* cholesterin* \
            hemoglobin* haemoglobin* hemoglobina* ferritin* bilirubin* glucose* glucosa glykemi* glicemi* viral_load \
            blood_sugar blood_pressure carga_viral charge_virale viruslast* glicosilada glicada 糖化血红蛋白 血糖 血圧 血压 \
            вирусная_нагрузка холестерин* ^TG ^K ^BP ^ALT ^AST
            """),
        (.medication, """
            insulin* metformin* sertralin* fluoxetin* escitalopram* citalopram* paroxetin* venlafaxin* duloxetin* \
            bupropion* mirtazapin* quetiapin* olanzapin* risperidon* aripiprazol* lithium litio lithium* clozapin* \
            lamotrigin* valpro* levetiracetam* atorvastatin* simvastatin* rosuvastatin* lisinopril* ramipril* \
            amlodipin* losartan* metoprolol* bisoprolol* levothyrox* warfarin* apixaban* rivaroxaban* prednison* \
            semaglutid* ozempic wegovy mounjaro tirzepatid* albuterol salbutamol* truvada descovy biktarvy \
            antiretrovir* antirretrovir* tamoxifen* letrozol* chemo chemotherap* quimioterap* chimiother* \
            chemotherapie* chemioterap* радиотерап* химиотерап* antidepress* antidepres* антидепрессант* \
            xanax zoloft prozac lexapro adderall ritalin vicodin oxycontin klonopin seroquel abilify wellbutrin \
            methylphenidat* alprazolam* diazepam* lorazepam* clonazepam* oxycodon* hydrocodon* morphin* fentanyl*
            """),
        (.addiction, """
            methadon* metadon* метадон* buprenorphin* buprenorfin* suboxone subutex naltrexon* naltrexona vivitrol \
            antabus* disulfiram* rehab relapsed relapse sober
            """),
        (.genetic, "dna adn днк brca1 brca2 brca apoe4 23andme ancestrydna genom* genetic* genetisch* genetiq* genetic*"),
        (.pregnancy, "ivf"),
        (.codeContext, "icd dx ddx diagnosis diagnoses diagnosed assessment impression diagnose diagnostico diagnostic diagnostik диагноз"),
        (.fiction, """
            novel novels novella fictional fiction character characters protagonist heroine villain sitcom episode \
            episodes screenplay anime manga netflix hbo tv the_show tv_show tv_series the_series the_film the_movie \
            movie movies film films roleplay fanfic fanfiction
            """),
        // Question words of every language are never names ("Wat is autisme?"); "Mi a rák?" and "Co je
        // rakovina?" are questions, not "my" and "je" (I).
        (.generic, """
            what how why when which who quel quelle quels comment pourquoi was wie warum welche welcher wat hoe \
            waarom welke cosa come quale quali cual cuales como jak dlaczego czy что как почему какие каковы \
            nasil neden hangi mik miert hogyan vad hur varfor hvad hvordan hvorfor mika miksi miten τι πως γιατι \
            ποια ποιος cum
            """),
        (.generic, "mi_a mi_az co_je co_to"),
        // Animals: a term after one is the pet's ("my cat has diabetes").
        (.topic, """
            cat cats dog dogs puppy kitten pet pets horse vet veterinarian parrot rabbit hamster perro gato \
            mascota chien hund katze haustier cane gatto cachorro cao hond kat pies kot кот кошка собака
            """),
        (.doseUnit, "mg mcg ug µg μg ml iu units unit ui ie мг мкг мл 毫克 ミリグラム 밀리그램"),
    ])

    static let english = SpecialCategoryLanguage(code: "en", entries: [
        (.selfReference, "i im ive id ill me my mine myself ive"),
        (.possessive, "his her their hers theirs"),
        (.relation, """
            wife husband partner spouse boyfriend girlfriend fiance fiancee son sons daughter daughters kid kids \
            child children baby mom mum mother mama dad father papa parents brother sister sibling grandma \
            grandmother grandpa grandfather aunt uncle cousin nephew niece friend roommate coworker colleague \
            stepson stepdaughter stepmom stepdad twin
            """),
        (.thirdPerson, "he she hes shes"),
        (.copula, "is was"),
        (.haveBe, """
            has had takes took gets got suffers suffered lives tested tests started starts needs uses \
            developed battles carries
            """),
        (.title, "mr mrs ms miss mx"),
        (.droppedSubject, "been diagnosed started got had tested just recently newly currently finally still have_had"),
        (.hypothetical, "if whether can could should would might may do does did will suppose imagine say"),
        (.topic, """
            about regarding question questions research researching reading studying studied studies biology essay article lecture \
            learn learning history explain explaining writing curious topic presentation documentary podcast \
            quiz exam homework thesis understand understanding wondering interested
            """),
        (.publicFigure, """
            announced announces publicly public famous celebrity celebrities president senator congressman \
            congresswoman governor mayor actor actress singer rapper musician footballer athlete player star \
            king queen prince princess pope minister chancellor politician politicians legend icon billionaire \
            ceo founder late reportedly according rumored rumoured tabloid tabloids interview biography wikipedia
            """),
        (.week, "week weeks wk wks weeks"),
        (.numberWord, """
            one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen twenty thirty \
            first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth \
            fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth
            """),
        (.condition, """
            diabet* prediabet* cancer* tumor* tumour* leukemi* leukaemi* lymphoma* melanoma* carcinoma* sarcoma* \
            metasta* malignan* chemo asthma* epilep* seizure* dementia alzheimer* parkinson* hypertension \
            hepatitis herpes chlamydia gonorrh* syphilis std stds sti stis hpv lupus crohn* colitis arthritis \
            sclerosis fibromyalgia endometriosis infertil* stroke heart_attack kidney_disease kidney_failure \
            dialysis cirrhosis copd emphysema tuberculosis insulin-dependent obese obesity anemia anaemia \
            migraines thyroid hypothyroid* hyperthyroid* celiac coeliac diagnosed diagnosis biopsy chemotherapy \
            radiotherapy radiation_therapy mastectomy hysterectomy transplant pacemaker hospice palliative \
            prostate_cancer covid long_covid syndrome disorder down_syndrome heart_disease heart_failure \
            surgery allergic allergy allergies concussion menopause erectile_dysfunction impotence vasectomy \
            hospitalized hospitalised
            """),
        (.pregnancy, """
            pregnant pregnancy miscarriage miscarried abortion aborted stillbirth ectopic ivf trimester \
            weeks_along weeks_pregnant
            """),
        (.mental, """
            depress* anxiety panic_attacks bipolar schizophreni* psychosis psychotic suicid* self-harm self_harm \
            self-harming self_harming cutting_myself cut_myself kill_myself killing_myself kill_herself killed_herself kill_himself killed_himself \
            kill_themselves killed_themselves suicide_attempt end_my_life ending_my_life take_my_life taking_my_life hurt_myself \
            hurting_myself harm_myself overdos* \
            raped rape sexual_assault sexually_assaulted molested abused eating_disorder anorexi* bulimi* ptsd ocd adhd autis* asperger* \
            psychiatric psychiatrist therapist \
            antidepress* hallucinat* insomnia trauma traumatized
            """),
        (.hiv, "hiv-positive hiv+ seropositive undetectable viral_load"),
        (.disability, """
            disabled disability disabilities blind legally_blind visually_impaired deaf hard_of_hearing wheelchair \
            wheelchairs paraplegic quadriplegic paralyzed paralysed amputee amputated prosthetic prosthesis \
            crutches cochlear hearing_aid hearing_aids
            """),
        (.addiction, """
            addict addicts addicted addiction alcoholic alcoholism sobriety detox opioid opioids heroin fentanyl \
            meth cocaine narcotics_anonymous alcoholics_anonymous aa_meeting na_meeting clean_for
            """),
        (.medication, "medication medications meds pills statin statins antibiotics inhaler epipen prescription prescribed"),
        (.orientation, """
            gay lesbian* bisexual* homosexual* queer pansexual* asexual* same-sex same_sex came_out coming_out \
            closeted
            """),
        (.gender, """
            trans transgender* transsexual* non-binary non_binary nonbinary genderqueer genderfluid trans_woman \
            trans_man transwoman transman estrogen oestrogen testosterone hrt \
            puberty_blockers gender_dysphoria gender-affirming gender_affirming misgendered deadname
            """),
        (.religion, """
            muslim* islam* christian* catholic* protestant* evangelical* jewish jew judaism hindu* buddhis* sikh* \
            atheist* agnostic* mormon* jehovah* baptist* methodist* pentecostal* orthodox quaker* scientolog* \
            rastafari* pagan wiccan ramadan hijab turban kippah synagogue mosque church
            """),
        (.politics, """
            communist communists socialist \
            socialists libertarian* conservative_party labour_party democratic_party republican_party green_party \
            liberal_democrats ukip reform_uk maga antifa anarchist* marxist* leninist* fascist* nazi neo-nazi \
            far-right far-left
            """),
        (.partyWord, "party parties republican republicans democrat democrats tory tories labour conservative conservatives liberal liberals greens"),
        (.membership, """
            member members membership joined registered card-carrying canvass canvassing campaign campaigning \
            volunteer volunteering activist delegate rep representative steward organizer organiser voted vote \
            voting donor donate
            """),
        (.union, """
            trade_union trade_unions labor_union labour_union shop_steward union_rep union_representative \
            unionized unionised unionizing teamsters
            """),
        (.unionWord, "union unions"),
        (.criminal, """
            criminal_record convicted felony felon misdemeanor misdemeanour prison jail \
            jailed incarcerated inmate parole arrested sentenced dui dwi sex_offender served_time \
            charged_with
            """),
        (.immigration, """
            undocumented illegal_immigrant illegally overstay* deport* asylum refugee refugees visa_expired \
            work_permit green_card residence_permit without_papers no_papers daca
            """),
        (.ethnicity, """
            roma romani gypsy sinti kurd kurdish uyghur uighur rohingya aboriginal indigenous \
            native_american first_nations hispanic latino latina latinx african_american biracial mixed_race \
            ethnicity ethnic dalit caste
            """),
        (.genetic, """
            dna_test genetic_test biometric* iris_scan \
            retina_scan face_scan voiceprint genome genotype
            """),
    ])
}
