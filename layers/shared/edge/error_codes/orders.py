"""The codes of orders: placing one, its promo code, its state and the stock it holds."""

from core.errors import Conflict, InvalidInput, NotFound, NotPermitted, Unavailable
from edge.error_codes.entry import CLIENT_BUG, ErrorCode

CODES: dict[str, ErrorCode] = {
    "PAYMENT_TYPE_NOT_OFFERED": ErrorCode(
        kind=Conflict,
        action="Offer only the car's payment types (`details.paymentTypes`)",
        en="Payment type {paymentType} is not offered for this car",
        ru="Способ оплаты {paymentType} недоступен для этого автомобиля",
        uz="Bu avtomobil uchun {paymentType} toʻlov turi mavjud emas",
    ),
    "OUT_OF_STOCK": ErrorCode(
        kind=Conflict,
        action="Let the user choose another branch, modification or color",
        en="This branch has no car of this modification and color in stock",
        ru="В этом филиале нет в наличии автомобиля этой модификации и цвета",
        uz="Bu filialda ushbu modifikatsiya va rangdagi avtomobil mavjud emas",
    ),
    "OPEN_ORDERS_LIMIT_REACHED": ErrorCode(
        kind=Conflict,
        action="Tell the user to pay for one of their orders first (`details.limit`: the cars one person may hold "
        "not paid in full), or to wait until one expires",
        en="You hold as many cars not paid in full as allowed ({limit}): pay for one of them before placing "
        "another order",
        ru="Вы удерживаете максимум автомобилей без полной оплаты ({limit}): оплатите один из заказов, прежде "
        "чем оформить новый",
        uz="Siz toʻliq toʻlanmagan avtomobillarning ruxsat etilgan sonini band qilgansiz ({limit}): yangi "
        "buyurtmadan oldin ulardan birini toʻlang",
    ),
    "UNVERIFIED_ORDERS_LIMIT_REACHED": ErrorCode(
        kind=Conflict,
        action="Have the user verify their identity (POST /api/v1/users/limit), then order again",
        en="Buyers who have not verified their identity hold as many cars as allowed now: verify your identity "
        "to order",
        ru="Покупатели, не подтвердившие личность, уже удерживают допустимое число автомобилей: подтвердите "
        "личность, чтобы оформить заказ",
        uz="Shaxsini tasdiqlamagan xaridorlar hozir ruxsat etilgancha avtomobilni band qilgan: buyurtma berish "
        "uchun shaxsingizni tasdiqlang",
    ),
    "PURCHASE_LIMIT_REACHED": ErrorCode(
        kind=Conflict,
        action="Tell the user how many of this car one person may order (`details.count`, `details.days`)",
        en="One person may order at most {count} of this car in {days} days",
        ru="Один человек может заказать не более {count} таких автомобилей за {days} дней",
        uz="Bir kishi {days} kun ichida bu avtomobildan koʻpi bilan {count} ta buyurtma qilishi mumkin",
    ),
    "SALE_NOT_STARTED": ErrorCode(
        kind=Conflict,
        action="Show when the sale opens (`details.startsAt`) and let the user order from then",
        en="The sale of this car has not started yet",
        ru="Продажа этого автомобиля ещё не началась",
        uz="Bu avtomobil savdosi hali boshlanmagan",
    ),
    "IDENTITY_VERIFICATION_REQUIRED": ErrorCode(
        kind=NotPermitted,
        action="Have the user verify their identity (POST /api/v1/users/limit), then order again",
        en="Only buyers who have verified their identity may order this car",
        ru="Этот автомобиль могут заказать только покупатели, подтвердившие личность",
        uz="Bu avtomobilni faqat shaxsini tasdiqlagan xaridorlar buyurtma qilishi mumkin",
    ),
    "ORGANIZATION_NOT_OF_OFFER": ErrorCode(
        kind=InvalidInput,
        action=CLIENT_BUG + ": send the organization of the chosen offer, or none",
        en="This is not the organization of the chosen offer",
        ru="Это не организация выбранного предложения",
        uz="Bu tanlangan taklifning tashkiloti emas",
    ),
    "OFFER_NOT_CHOSEN": ErrorCode(
        kind=InvalidInput,
        action=CLIENT_BUG + ": send the chosen offer, or none",
        en="This is not the chosen offer",
        ru="Это не выбранное предложение",
        uz="Bu tanlangan taklif emas",
    ),
    "PROMO_CODE_NEEDS_INITIAL_PAYMENT": ErrorCode(
        kind=Conflict,
        action="Place the order without the promo code",
        en="A promo code lowers the initial payment, and this financing has none: order without it",
        ru="Промокод уменьшает первоначальный взнос, а у этого финансирования его нет: оформите заказ без промокода",
        uz=(
            "Promokod boshlangʻich toʻlovni kamaytiradi, bu moliyalashtirishda esa u yoʻq: "
            "buyurtmani promokodsiz bering"
        ),
    ),
    "ORDER_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Reload the user's orders",
        en="Order not found",
        ru="Заказ не найден",
        uz="Buyurtma topilmadi",
    ),
    "ORDER_NOT_PAYABLE": ErrorCode(
        kind=Conflict,
        action="Reload the order and show its status; it takes no more payments",
        en="The order is {status} and cannot take payments",
        ru="Заказ в статусе {status} и не принимает оплату",
        uz="Buyurtma {status} holatida va toʻlov qabul qilmaydi",
    ),
    "ORDER_HOLD_EXPIRED": ErrorCode(
        kind=Conflict,
        action="Tell the user the order was not paid in time (`details.depositBy`, `details.payBy`) and its car "
        "is back on sale",
        en="The order was not paid in time and is cancelled; its car is back on sale",
        ru="Заказ не был оплачен вовремя и отменён; автомобиль снова в продаже",
        uz="Buyurtma oʻz vaqtida toʻlanmadi va bekor qilindi; avtomobil yana sotuvda",
    ),
    "PAYMENT_BELOW_DEPOSIT": ErrorCode(
        kind=Conflict,
        action="Offer to pay at least the deposit (`details.deposit`) first",
        en="The first payment must be at least the deposit of {deposit} sums",
        ru="Первый платёж должен быть не меньше залога в {deposit} сумов",
        uz="Birinchi toʻlov {deposit} soʻmlik zakalatdan kam boʻlmasligi kerak",
    ),
    "PAYMENT_ABOVE_DUE": ErrorCode(
        kind=Conflict,
        action="Offer to pay at most what is still due (`details.remaining`)",
        en="The payment is larger than the amount still due",
        ru="Платёж больше оставшейся к оплате суммы",
        uz="Toʻlov qolgan toʻlanadigan summadan katta",
    ),
    "PAYMENT_NOT_POSITIVE": ErrorCode(
        kind=Conflict,
        action=CLIENT_BUG,
        en="A payment must be a positive amount",
        ru="Сумма платежа должна быть положительной",
        uz="Toʻlov summasi musbat boʻlishi kerak",
    ),
    "ORDER_STATUS_NEEDS_PAYMENT": ErrorCode(
        kind=Conflict,
        action="Only a confirmed payment reaches this status",
        en="Only a confirmed payment moves an order to {target}",
        ru="Только подтверждённый платёж переводит заказ в статус {target}",
        uz="Buyurtmani faqat tasdiqlangan toʻlov {target} holatiga oʻtkazadi",
    ),
    "ORDER_TRANSITION_NOT_ALLOWED": ErrorCode(
        kind=Conflict,
        action="Reload the order; choose one of `details.allowed`",
        en="The order cannot go from {current} to {target}",
        ru="Заказ нельзя перевести из {current} в {target}",
        uz="Buyurtmani {current} holatidan {target} holatiga oʻtkazib boʻlmaydi",
    ),
    "ORDER_CHANGED_CONCURRENTLY": ErrorCode(
        kind=Conflict,
        action="Reload the order and try again",
        en="The order is being changed by another request, try again",
        ru="Заказ изменяется другим запросом, повторите попытку",
        uz="Buyurtma boshqa soʻrov tomonidan oʻzgartirilmoqda, qayta urinib koʻring",
    ),
    "ORDER_BUSY": ErrorCode(
        kind=Unavailable,
        action="Retry the same request after `Retry-After` seconds",
        en="The order is being changed by another request; try again in a minute",
        ru="Заказ изменяется другим запросом; повторите через минуту",
        uz="Buyurtma boshqa soʻrov tomonidan oʻzgartirilmoqda; bir daqiqadan soʻng qayta urinib koʻring",
    ),
    "PROMO_CODE_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Tell the user the promo code does not exist",
        en="Promo code not found",
        ru="Промокод не найден",
        uz="Promokod topilmadi",
    ),
    "PROMO_CODE_NOT_ACTIVE_YET": ErrorCode(
        kind=Conflict,
        action="Tell the user from when the promo code works (`details.validFrom`)",
        en="Promo code is not active yet",
        ru="Промокод ещё не действует",
        uz="Promokod hali amal qilmaydi",
    ),
    "PROMO_CODE_EXPIRED": ErrorCode(
        kind=Conflict,
        action="Tell the user the promo code has expired",
        en="Promo code has expired",
        ru="Срок действия промокода истёк",
        uz="Promokod muddati tugagan",
    ),
    "PROMO_CODE_ALREADY_USED": ErrorCode(
        kind=Conflict,
        action="Tell the user they have used this promo code already",
        en="You have already used this promo code",
        ru="Вы уже использовали этот промокод",
        uz="Siz bu promokoddan allaqachon foydalangansiz",
    ),
    "PROMO_CODE_USED_UP": ErrorCode(
        kind=Conflict,
        action="Tell the user the promo code has run out",
        en="Promo code has been used up",
        ru="Лимит использования промокода исчерпан",
        uz="Promokoddan foydalanish limiti tugagan",
    ),
    # A fair opening (domain.orders.openings): registration, and an order through the queue.
    "SALE_QUEUE_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Order the car as usual: its sale has no queue (or there is no such car)",
        en="This car's sale has no queue",
        ru="У продажи этого автомобиля нет очереди",
        uz="Bu avtomobil savdosida navbat yoʻq",
    ),
    "SALE_ENTRY_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Offer the user to register for the opening (POST /api/v1/sales/{carId}/entries)",
        en="You have not registered for this car's opening",
        ru="Вы не зарегистрированы на открытие продаж этого автомобиля",
        uz="Siz bu avtomobil savdosi ochilishiga roʻyxatdan oʻtmagansiz",
    ),
    "REGISTRATION_NOT_OPEN": ErrorCode(
        kind=Conflict,
        action="Show when registration opens (`details.registrationOpensAt`) and let the user register then",
        en="Registration for this car's opening has not opened yet",
        ru="Регистрация на открытие продаж этого автомобиля ещё не началась",
        uz="Bu avtomobil savdosi ochilishiga roʻyxatdan oʻtish hali boshlanmagan",
    ),
    "ALREADY_ENTERED": ErrorCode(
        kind=Conflict,
        action="Show the user their entry (GET /api/v1/sales/{carId}/entries/me): one entry per person",
        en="You have already registered for this car's opening",
        ru="Вы уже зарегистрированы на открытие продаж этого автомобиля",
        uz="Siz bu avtomobil savdosi ochilishiga allaqachon roʻyxatdan oʻtgansiz",
    ),
    "NOT_YOUR_TURN": ErrorCode(
        kind=Conflict,
        action="Show the user's place (`details.position`, null without an entry) and the queue's "
        "(`details.servingUpTo`); poll status.json and order when admitted",
        en="Your turn in the queue for this car has not come yet",
        ru="Ваша очередь на этот автомобиль ещё не подошла",
        uz="Bu avtomobil uchun navbatingiz hali kelmadi",
    ),
    "ADMISSION_EXPIRED": ErrorCode(
        kind=Conflict,
        action="Tell the user their time to order passed (`details.admittedUntil`)",
        en="Your time to order this car has passed",
        ru="Время, отведённое вам для заказа этого автомобиля, истекло",
        uz="Bu avtomobilga buyurtma berish uchun ajratilgan vaqtingiz tugadi",
    ),
    "ADMISSION_USED": ErrorCode(
        kind=Conflict,
        action="Show the user the order they placed with their admission (GET /api/v1/orders): one per admission",
        en="You have already placed your order from the queue for this car",
        ru="Вы уже оформили заказ этого автомобиля по своей очереди",
        uz="Siz bu avtomobil uchun navbatingiz boʻyicha buyurtmani allaqachon bergansiz",
    ),
}
