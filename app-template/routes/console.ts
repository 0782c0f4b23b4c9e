import { defineSchedule } from 'kiln-framework'

/**
 * Scheduled tasks: `kiln schedule:list` shows them, `kiln schedule:run` runs
 * what is due (call it from cron once a minute), `kiln schedule:work` runs
 * them in the foreground.
 */
export default defineSchedule((Schedule) => {
  // Personal access tokens (/tokens) that expired a day ago are of no use to anyone: delete them every night.
  Schedule.command('tok:prune-expired', ['--hours=24']).dailyAt('03:30')
})
