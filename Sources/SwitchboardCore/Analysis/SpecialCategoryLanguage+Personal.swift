/// Cues of personal (not special-category) data, in the languages of the health tables: dates of birth in
/// words, money about the speaker, home coordinates and addresses, licence plates, employers, schools.
extension SpecialCategoryLanguage {
    static let personal = SpecialCategoryLanguage(code: "mul-personal", entries: [
        (.birth, """
            born birthday dob birthdate naci nacio nacida nacido nacimiento ne nee naissance geboren geburtstag \
            geburtsdatum nato nata nascita nasci nascido nascida nascimento geboortedatum urodzilem urodzilam \
            urodzony urodzona urodzil urodzila urodzin родился родилась рождения dogdum dogum fodd fodelsedag fodt \
            syntynyt narodil narodila narozen nascut nascuta szulettem lahir alizaliwa जन्म 生まれ 生年月日 誕生日 出生 生日 \
            생년월일 태어났* 생일 일생*
            """),
        (.month, """
            january february march april may june july august september october november december enero febrero \
            marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre janvier fevrier mars avril \
            mai juin juillet aout septembre octobre novembre decembre januar februar marz juni juli oktober \
            dezember gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre janeiro fevereiro \
            marco maio junho julho setembro outubro dezembro januari februari maart mei augustus stycznia lutego \
            marca kwietnia maja czerwca lipca sierpnia wrzesnia pazdziernika listopada grudnia января февраля \
            марта апреля мая июня июля августа сентября октября ноября декабря ocak subat mart nisan mayis \
            haziran temmuz agustos eylul ekim kasim aralik maj augusti
            """),
        (.finance, """
            salary salaries earn earning earnings income paycheck wage wages owe owing debt debts loan loans \
            mortgage overdrawn verdiene gehalt einkommen schulden kredit gano sueldo salario deuda deudas debo \
            prestamo gagne salaire dette dettes dois emprunt guadagno stipendio debito debiti mutuo ganho salario \
            divida dividas devo emprestimo verdien salaris schuld zarabiam pensja dlug dlugi kredyt зарплата \
            зарабатываю долг долги кредит maas borc borcum kazaniyorum 工资 收入 月薪 年薪 欠款 贷款 年収 給料 月給 借金 \
            ローン 연봉* 월급* 빚* 대출* वेतन सैलरी कर्ज राتب دين gaji utang
            """),
        (.selfReference, "gano verdiene gagne guadagno ganho zarabiam зарабатываю kazaniyorum borcum"),
        (.currency, """
            dollar dollars usd eur euro euros pound pounds gbp yen jpy yuan rmb cny rupees inr rs zl pln rubles \
            руб рублей lira tl reais brl kr kronor sek nok dkk chf francs won krw 円 元 块 万円 万元 원* рубл*
            """),
        (.home, """
            home house apartment flat live lives living reside wohnung zuhause hause haus wohne casa vivo maison \
            domicile habite appartement abito abitazione moro thuis woning woon dom domu mieszkanie mieszkam \
            дом дома квартира живу ev evim evde hemma bor hjemme kotona 自宅 家 住所 住在 집 우리집
            """),
        (.plate, """
            plate plates registration reg kennzeichen nummernschild matricula immatriculation plaque targa placa \
            kenteken rejestracyjny rejestracja госномер номер_машины plaka registreringsnummer rekisterikilpi \
            ナンバー 车牌 번호판
            """),
        (.employer, """
            work_at work_for works_at works_for working_at working_for employed_by employed_at job_at employer \
            arbeite_bei arbeitet_bei arbeitgeber trabajo_en trabaja_en empresa travaille_chez employeur lavoro_presso \
            lavoro_da datore trabalho_na trabalho_no trabalho_em werk_bij werkgever pracuje_w pracodawca \
            работаю_в 에서_일 で働 在_工作
            """),
        (.school, """
            school schools elementary kindergarten preschool daycare nursery grade primary academy schule \
            grundschule gymnasium kita colegio escuela instituto guarderia ecole college lycee creche scuola asilo \
            liceo escola basisschool szkola szkoly przedszkole школа школу школе садик okul okulu skola skolan \
            skole koulu 学校 小学 中学 幼稚园 幼稚園 保育園 학교* 유치원* 초등학교*
            """),
        (.child, """
            son daughter kid kids child sohn tochter hijo hija fils fille figlio figlia filho filha zoon dochter \
            syn corka сын сына дочь дочка oglum kizim dotter datter poika tytar 息子 娘 儿子 女儿 아들* 딸*
            """),
    ])
}
